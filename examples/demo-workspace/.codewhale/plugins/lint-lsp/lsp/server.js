// placeholder language server
