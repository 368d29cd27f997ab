import type { HermesEvent } from '../api/types'

// Realistic runs for unit tests. Only tests import this file.

function builder(runId: string) {
  let seq = 0
  return (iteration: number, type: string, data: unknown, ms: number): HermesEvent => {
    seq++
    return { v: 1, run_id: runId, seq, time: new Date(Date.UTC(2026, 10, 30, 1, 35, 0, ms)).toISOString(), iteration, type, data }
  }
}

const ev = builder('r1')

const sys = { role: 'system', content: 'You are Hermes.' }
const task = { role: 'user', content: 'Task: Summarise README.md' }
const call1 = { role: 'assistant', content: 'Let me read it.', tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"README.md"}' }] }
const result1 = { role: 'tool', content: 'error: no such file README.md', tool_call_id: 'c1', name: 'read_file' }

/** Two iterations: a failing tool call, a guard warning and a final answer. */
export const sampleEvents: HermesEvent[] = [
  ev(0, 'run.started', { task: 'Summarise README.md', workspace: '/w', model: 'gpt-4o-mini', max_iterations: 25, tools: ['read_file'] }, 0),
  ev(1, 'iteration.started', {}, 10),
  ev(1, 'context.built', { layers: { system: 300, tool_schemas: 500, task_anchor: 100 }, tokens: 900, window: 128000, budget_share: 0.007, compressed: false, message_count: 2, full: true, messages: [sys, task] }, 20),
  ev(1, 'model.delta', { text: 'Let me ' }, 30),
  ev(1, 'model.delta', { text: 'read it.' }, 40),
  ev(1, 'model.decided', { tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"README.md"}', valid: true }], usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 }, latency_ms: 300, attempts: 1 }, 50),
  ev(1, 'tool.started', { call_id: 'c1', name: 'read_file', arguments: '{"path":"README.md"}', attempt: 1 }, 60),
  ev(1, 'tool.finished', { call_id: 'c1', name: 'read_file', ok: false, error: 'no such file README.md in the workspace; call list_files to see what exists', duration_ms: 3, attempt: 1 }, 70),
  ev(1, 'guard.tripped', { guard: 'unverified_answer', action: 'warn', message: 'the last tool call failed' }, 75),
  ev(1, 'checkpoint.saved', { messages: 4 }, 80),
  ev(2, 'iteration.started', {}, 90),
  ev(2, 'context.built', { layers: { system: 300, tool_schemas: 500, task_anchor: 100, recent: 40, tool_results: 60 }, tokens: 1000, window: 128000, budget_share: 0.008, compressed: false, message_count: 4, full: false, messages: [call1, result1] }, 95),
  ev(2, 'model.decided', { thought: 'It is missing.', final_answer: 'There is no README.md.', usage: { prompt_tokens: 1000, completion_tokens: 12, total_tokens: 1012 }, latency_ms: 200, attempts: 1 }, 100),
  ev(2, 'checkpoint.saved', { messages: 5 }, 110),
  ev(2, 'run.finished', { status: 'finished', answer: 'There is no README.md.', verified: false, totals: { iterations: 2, prompt_tokens: 1900, completion_tokens: 32, total_tokens: 1932, tool_calls: 1, duration_ms: 110 } }, 120),
]

const sv = builder('r2')
const write = '{"path":"notes.md","content":"draft"}'

/**
 * A run steered by a person: paused after a decision, a call's arguments
 * edited, an approval allowed, an instruction injected, the task edited, a
 * compression, a denial, a stop and a resume from the checkpoint.
 */
export const steeredEvents: HermesEvent[] = [
  sv(0, 'run.started', { task: 'Write notes', instructions: 'Be brief', workspace: '/w', model: 'm', max_iterations: 10, tools: ['write_file'] }, 0),
  sv(1, 'iteration.started', {}, 10),
  sv(1, 'context.built', { layers: { system: 200, task_anchor: 50 }, tokens: 250, window: 1000, budget_share: 0.25, full: true, messages: [sys, { role: 'user', content: 'Task: Write notes' }] }, 20),
  sv(1, 'model.decided', { tool_calls: [{ id: 'w1', name: 'write_file', arguments: write, valid: true }], usage: { prompt_tokens: 250, completion_tokens: 30, total_tokens: 280 } }, 30),
  sv(1, 'run.paused', { at: 'decided', pending_calls: [{ id: 'w1', name: 'write_file', arguments: write, valid: true }] }, 40),
  sv(1, 'call.edited', { call_id: 'w1', name: 'write_file', old_arguments: write, new_arguments: '{"path":"notes.md","content":"final"}' }, 50),
  sv(1, 'run.resumed', {}, 60),
  sv(1, 'approval.requested', { approval_id: 'a1', call_id: 'w1', name: 'write_file', arguments: '{"path":"notes.md","content":"final"}', risk: 'write', reason: 'writes ask' }, 70),
  sv(1, 'approval.resolved', { approval_id: 'a1', call_id: 'w1', decision: 'allow_once', by: 'user' }, 80),
  sv(1, 'tool.started', { call_id: 'w1', name: 'write_file', arguments: '{"path":"notes.md","content":"final"}', attempt: 1 }, 90),
  sv(1, 'tool.finished', { call_id: 'w1', name: 'write_file', ok: true, result: 'wrote 5 bytes', size: 13, duration_ms: 4, attempt: 1 }, 100),
  sv(1, 'checkpoint.saved', { messages: 4 }, 110),
  sv(1, 'instruction.injected', { text: 'Use headings' }, 120),
  sv(1, 'run.paused', { at: 'boundary' }, 130),
  sv(1, 'task.edited', { old_task: 'Write notes', new_task: 'Write short notes', old_instructions: 'Be brief', new_instructions: 'Be very brief' }, 140),
  sv(1, 'run.resumed', {}, 150),
  sv(2, 'iteration.started', {}, 160),
  sv(2, 'context.built', { layers: { system: 200, task_anchor: 60, summary: 40 }, tokens: 300, window: 1000, budget_share: 0.3, compressed: true, full: true, messages: [sys, { role: 'user', content: 'Task: Write short notes' }, { role: 'user', content: 'Summary: notes.md written' }] }, 170),
  sv(2, 'model.decided', { tool_calls: [{ id: 'w2', name: 'write_file', arguments: write, valid: true }], usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 } }, 180),
  sv(2, 'approval.requested', { approval_id: 'a2', call_id: 'w2', name: 'write_file', arguments: write, risk: 'write', reason: 'writes ask' }, 190),
  sv(2, 'approval.resolved', { approval_id: 'a2', call_id: 'w2', decision: 'deny', reason: 'keep the final version', by: 'user' }, 200),
  sv(2, 'tool.finished', { call_id: 'w2', name: 'write_file', ok: false, error: 'denied by the user: keep the final version', attempt: 1 }, 210),
  sv(2, 'checkpoint.saved', { messages: 6 }, 220),
  sv(2, 'run.finished', { status: 'stopped', error: 'stopped by the user', totals: { iterations: 2, total_tokens: 600 }, resume: 'hermes resume r2' }, 230),
  sv(2, 'run.resumed', { from_checkpoint: true, iteration: 2 }, 240),
  sv(3, 'iteration.started', {}, 250),
]

const pv = builder('r3')
const step = (id: number, description: string, tools: string[], acceptance: string) => ({ id, description, tools, acceptance, required: true, status: 'pending' })
const s1 = step(1, 'Read the order file', ['read_file'], 'the order lines are known')
const s2 = step(2, 'Look up the order', ['lookup_order'], 'the order status is known')
const s3 = step(3, 'Write the report', ['write_file'], 'report.md names the status')
const s3b = step(3, 'Write the report', ['write_file', 'read_file'], 'report.md names the status and the date')

/**
 * A plan run: routed to the loop, a plan of three steps, a step passed, a
 * guessed order id that fails and is asked about, a drifting decision, a
 * replan, a completion check that fails and one that passes.
 */
export const planEvents: HermesEvent[] = [
  pv(0, 'run.started', { task: 'Report the status of my last order', workspace: '/w', model: 'm', max_iterations: 10, tools: ['read_file', 'lookup_order', 'write_file'] }, 0),
  pv(0, 'route.decided', { route: 'loop', by: 'rules', reason: 'the task asks for something only tools can do' }, 5),
  pv(0, 'plan.created', { steps: [s1, s2, s3], assumptions: ['orders.txt holds the orders'], attempts: 1 }, 10),
  pv(1, 'context.built', { stage: 'deciding', tokens: 500, window: 8000, layers: { system: 300, task_anchor: 200 } }, 20),
  pv(1, 'model.decided', { stage: 'deciding', step: 1, step_status: 'finished', serves_goal: 'the orders say which is last', tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"orders.txt"}', valid: true, provenance: { path: 'user' } }] }, 30),
  pv(1, 'tool.finished', { call_id: 'c1', name: 'read_file', ok: true, result: 'ORD-7731 2026-11-02', size: 19 }, 40),
  pv(1, 'step.evaluated', { step: 1, passed: true, reason: 'the last order is ORD-7731', calls: ['c1'], next_step: 2 }, 50),
  pv(2, 'model.decided', { stage: 'deciding', step: 2, step_status: 'continue', serves_goal: 'the status answers the task', tool_calls: [{ id: 'c2', name: 'lookup_order', arguments: '{"id":"ORD-1"}', valid: true, provenance: { id: 'inferred' } }] }, 60),
  pv(2, 'tool.finished', { call_id: 'c2', name: 'lookup_order', ok: false, error: 'no order ORD-1' }, 70),
  pv(2, 'question.asked', { question_id: 'question_c2', call_id: 'c2', tool: 'lookup_order', argument: 'id', value: 'ORD-1', failure: 'no order ORD-1', question: 'Which order id should lookup_order use?' }, 80),
  pv(2, 'question.answered', { question_id: 'question_c2', answer: 'ORD-7731', by: 'user' }, 90),
  pv(3, 'model.decided', { stage: 'deciding', step: 0, serves_goal: 'tidy the workspace', drift: 'serves no step of the plan', tool_calls: [{ id: 'c3', name: 'write_file', arguments: '{"path":"todo.md"}', valid: true }] }, 100),
  pv(3, 'guard.tripped', { stage: 'deciding', guard: 'drift', action: 'warn', message: 'serves no step of the plan' }, 105),
  pv(3, 'step.evaluated', { step: 2, passed: false, reason: 'the status was not looked up', contradicts_plan: true, calls: ['c3'] }, 110),
  pv(3, 'plan.revised', { reason: 'the order is in the archive', steps: [{ ...s1, status: 'passed' }, s2, s3b], diff: { changed: [{ before: s3, after: s3b }], kept: [1, 2] } }, 120),
  pv(4, 'model.decided', { stage: 'deciding', final_answer: 'Shipped.' }, 130),
  pv(4, 'completion.checked', { passed: false, steps_passed: 1, steps_required: 3, missing: [2, 3], threshold: 0.8 }, 140),
  pv(5, 'step.evaluated', { step: 2, passed: true, reason: 'ORD-7731 is shipped', calls: ['c4'] }, 150),
  pv(5, 'step.evaluated', { step: 3, passed: true, reason: 'report.md says shipped', calls: ['c5'] }, 160),
  pv(5, 'model.decided', { stage: 'deciding', final_answer: 'ORD-7731 shipped on 2026-11-04.' }, 170),
  pv(5, 'completion.checked', { passed: true, steps_passed: 3, steps_required: 3, confidence: 0.9, reason: 'every step passed', threshold: 0.8 }, 180),
  pv(5, 'memory.written', { entries: 1 }, 185),
  pv(5, 'run.finished', { status: 'finished', answer: 'ORD-7731 shipped on 2026-11-04.', verified: true, confidence: 0.9, confidence_reason: 'every step passed', totals: { iterations: 5, stage_calls: 6, total_tokens: 7400, stage_tokens: { route: 0, plan: 900, decide: 4800, evaluate: 700, answer: 1000 } } }, 190),
]
