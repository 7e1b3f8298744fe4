// A tiny MCP server that lists issues from issues.json (demo only).
import { readFileSync } from 'node:fs';
process.stdout.write(JSON.stringify({ issues: JSON.parse(readFileSync('issues.json', 'utf8')) }) + '\n');
