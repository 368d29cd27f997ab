#!/usr/bin/env bash
# Runs the task suite (bench/tasks: multi-step tasks with scripted models
# that wander, repeat themselves, claim success after a failure, drift,
# need a replan, guess an ID) under the react and the plan strategy, and
# prints per task and in total: success, iterations, the stages' own model
# calls, tokens, guards tripped and wall time. `go test ./bench/tasks`
# checks the target in CI: plan succeeds on every task with fewer
# iterations in total than react.
# Usage: bench/suite.sh
set -euo pipefail
cd "$(dirname "$0")/.."
go test -count=1 -run '^TestSuite$' -v ./bench/tasks -args -table | grep -Ev '^(=== RUN|--- PASS|PASS$|ok )'
