#!/usr/bin/env bash
# The OS sandbox's cost and what it saves:
#   - one command's overhead in the sandbox over the same without it,
#     through the real execute_command tool, 200 runs each in turns: a
#     command that does nothing (`true`, the cost alone) and a typical one
#     (`ls -la && git status`); min, p50, p95, max (goal: p50 ≤ 5 ms);
#   - approval prompts per task on the approvals suite before
#     (exec = "ask") and after (exec = "sandbox").
# Usage: bench/sandbox.sh [RUNS]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/sandboxbench" ./bench/sandboxbench
"$tmp/sandboxbench" -n "$runs" -command 'true'
"$tmp/sandboxbench" -n "$runs" -command 'ls -la && git status --short 2>/dev/null | head -5'
echo
echo "approval prompts per task (bench/approvals.sh):"
bench/approvals.sh
