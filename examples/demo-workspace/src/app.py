def main() -> None:
    print("hello from the demo app")
