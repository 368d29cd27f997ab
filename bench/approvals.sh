#!/usr/bin/env bash
# Runs the approvals suite (bench/tasks CommandTasks: tasks that run the
# tests, grep, git, sed, go vet and pipelines through execute_command, each
# command really run in the task's temp workspace) under the old default
# (exec = "ask", no rules), the same with a person answering "always" with
# the patterns offered, and the new default (exec = "sandbox", the command
# tool confined), and prints per task and in total the tool calls, the
# commands, and the approvals asked (all, and those of execute_command).
# `go test ./bench/tasks` checks in CI that the new default asks fewer.
# Usage: bench/approvals.sh
set -euo pipefail
cd "$(dirname "$0")/.."
go test -count=1 -run '^TestApprovals$' -v ./bench/tasks -args -table | grep -Ev '^(=== RUN|--- PASS|PASS$|ok )'
