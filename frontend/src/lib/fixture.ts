import type { HermesEvent } from '../api/types'

// A realistic run for unit tests: two iterations, a failing tool call, a
// guard warning and a final answer. Only tests import it.

let seq = 0
function ev(iteration: number, type: string, data: unknown, ms: number): HermesEvent {
  seq++
  return { v: 1, run_id: 'r1', seq, time: new Date(Date.UTC(2026, 10, 30, 1, 35, 0, ms)).toISOString(), iteration, type, data }
}

export const sampleEvents: HermesEvent[] = [
  ev(0, 'run.started', { task: 'Summarise README.md', workspace: '/w', model: 'gpt-4o-mini', max_iterations: 25, tools: ['read_file'] }, 0),
  ev(1, 'iteration.started', {}, 10),
  ev(1, 'context.built', { tokens: 900, window: 128000, budget_share: 0.007, compressed: false, message_count: 2 }, 20),
  ev(1, 'model.delta', { text: 'Let me ' }, 30),
  ev(1, 'model.delta', { text: 'read it.' }, 40),
  ev(1, 'model.decided', { tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"README.md"}', valid: true }], usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 }, latency_ms: 300, attempts: 1 }, 50),
  ev(1, 'tool.started', { call_id: 'c1', name: 'read_file', arguments: '{"path":"README.md"}', attempt: 1 }, 60),
  ev(1, 'tool.finished', { call_id: 'c1', name: 'read_file', ok: false, error: 'no such file README.md in the workspace; call list_files to see what exists', duration_ms: 3, attempt: 1 }, 70),
  ev(1, 'guard.tripped', { guard: 'unverified_answer', action: 'warn', message: 'the last tool call failed' }, 75),
  ev(1, 'checkpoint.saved', { messages: 4 }, 80),
  ev(2, 'iteration.started', {}, 90),
  ev(2, 'model.decided', { thought: 'It is missing.', final_answer: 'There is no README.md.', usage: { prompt_tokens: 1000, completion_tokens: 12, total_tokens: 1012 }, latency_ms: 200, attempts: 1 }, 100),
  ev(2, 'checkpoint.saved', { messages: 5 }, 110),
  ev(0, 'run.finished', { status: 'finished', answer: 'There is no README.md.', verified: false, totals: { iterations: 2, prompt_tokens: 1900, completion_tokens: 32, total_tokens: 1932, tool_calls: 1, duration_ms: 110 } }, 120),
]
