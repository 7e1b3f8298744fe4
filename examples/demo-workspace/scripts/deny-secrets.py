import json, sys

event = json.load(sys.stdin)
path = event.get("payload", {}).get("tool_call", {}).get("arguments", {}).get("path", "")
if path.endswith(".env"):
    print(json.dumps({"decision": "deny", "reason": "reading .env files is blocked"}))
