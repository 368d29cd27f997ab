import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { editedWhat, kindOf, orderEvents, statusLabel, summarizeEvent } from './events'
import { sampleEvents } from './fixture'

const bySeq = (seq: number) => sampleEvents.find((e) => e.seq === seq) as HermesEvent

describe('orderEvents', () => {
  it('sorts by seq and drops repeats', () => {
    const shuffled = [bySeq(3), bySeq(1), bySeq(2), bySeq(3), bySeq(1)]
    expect(orderEvents(shuffled).map((e) => e.seq)).toEqual([1, 2, 3])
  })
})

describe('summarizeEvent', () => {
  it.each([
    [1, 'en', 'Run started with gpt-4o-mini: Summarise README.md'],
    [2, 'en', 'Iteration 1 started'],
    [3, 'en', 'Context of 900 tokens (1% of the window), 2 messages'],
    [4, 'en', 'Streamed: Let me'],
    [6, 'en', 'Decided to call read_file({"path":"README.md"})'],
    [7, 'en', 'Running read_file({"path":"README.md"})'],
    [8, 'en', 'read_file failed after 3 ms: no such file README.md in the workspace; call list_files to see what exists'],
    [9, 'en', 'Guard unverified_answer (warn): the last tool call failed'],
    [10, 'en', 'Checkpoint saved (4 messages)'],
    [13, 'en', 'Final answer: There is no README.md.'],
    [15, 'en', 'Finished after 2 iterations and 1,932 tokens'],
    [1, 'zh-CN', '使用 gpt-4o-mini 开始运行：Summarise README.md'],
    [15, 'zh-CN', '已完成，共 2 轮迭代、1,932 令牌'],
  ] as const)('seq %d in %s', (seq, lang, want) => {
    expect(summarizeEvent(bySeq(seq), lang)).toBe(want)
  })

  it('says what an edit changed: the task, the instructions or both', () => {
    const edit = (data: object): HermesEvent => ({ v: 1, run_id: 'r', seq: 1, time: '', iteration: 1, type: 'task.edited', data })
    // The task is sent unchanged when only the instructions were edited.
    const instructions = { old_task: 'Write notes', new_task: 'Write notes', old_instructions: 'Be brief', new_instructions: 'Use headings' }
    expect(editedWhat(instructions)).toBe('instructions')
    expect(summarizeEvent(edit(instructions), 'en')).toBe('Instructions changed to: Use headings')
    expect(summarizeEvent(edit(instructions), 'zh-CN')).toBe('指令改为：Use headings')
    expect(editedWhat({ old_task: 'Write notes', new_task: 'Write short notes' })).toBe('task')
    expect(summarizeEvent(edit({ old_task: 'Write notes', new_task: 'Write short notes' }), 'en')).toBe('Task changed to: Write short notes')
    const both = { old_task: 'a', new_task: 'b', old_instructions: 'x', new_instructions: '' }
    expect(editedWhat(both)).toBe('both')
    expect(summarizeEvent(edit(both), 'en')).toBe('Task changed to: b · Instructions changed to: –')
  })

  it('survives missing data and unknown types', () => {
    const e: HermesEvent = { v: 1, run_id: 'r', seq: 1, time: '', iteration: 0, type: 'tool.finished', data: null }
    expect(summarizeEvent(e, 'en')).toBe('? failed after 0 ms:')
    expect(summarizeEvent({ ...e, type: 'future.thing' }, 'en')).toBe('future.thing')
  })

  it('keeps to one line of the given length', () => {
    const long: HermesEvent = { ...bySeq(4), data: { text: 'word\n'.repeat(100) } }
    const s = summarizeEvent(long, 'en', 40)
    expect(Array.from(s)).toHaveLength(40)
    expect(s).not.toContain('\n')
  })
})

describe('kindOf and statusLabel', () => {
  it.each([
    ['run.started', 'run'],
    ['run.finished', 'run'],
    ['run.paused', 'control'],
    ['iteration.started', 'iteration'],
    ['context.built', 'context'],
    ['model.decided', 'model'],
    ['tool.finished', 'tool'],
    ['guard.tripped', 'guard'],
    ['checkpoint.saved', 'state'],
    ['instruction.injected', 'control'],
  ])('%s is %s', (type, kind) => {
    expect(kindOf(type)).toBe(kind)
  })

  it('names statuses in both languages and passes unknown ones through', () => {
    expect(statusLabel('max_iterations', 'en')).toBe('Iteration limit')
    expect(statusLabel('guard', 'zh-CN')).toBe('被守卫终止')
    expect(statusLabel('crashed', 'en')).toBe('crashed')
  })
})
