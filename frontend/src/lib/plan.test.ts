import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { planEvents } from './fixture'
import { currentStep, openQuestion, requiredSteps, stageOf } from './plan'
import { foldRun } from './timeline'

const upTo = (type: string, nth = 1): HermesEvent[] => {
  let seen = 0
  const i = planEvents.findIndex((e) => e.type === type && ++seen === nth)
  return planEvents.slice(0, i + 1)
}

const statuses = (events: HermesEvent[]) => foldRun(events).plan.plan?.steps.map((s) => s.status)

describe('stageOf', () => {
  const ev = (type: string, data: unknown = {}): HermesEvent => ({ v: 1, run_id: 'r', seq: 1, time: '', iteration: 1, type, data })
  it.each([
    ['route.decided', {}, 'intake'],
    ['plan.revised', {}, 'planning'],
    ['tool.finished', {}, 'acting'],
    ['approval.requested', {}, 'acting'],
    ['step.evaluated', {}, 'evaluating'],
    ['question.asked', {}, 'deciding'],
    ['memory.recalled', {}, 'memory'],
    ['memory.written', {}, 'memory'],
    ['run.finished', {}, 'completion'],
    ['model.decided', { stage: 'intake' }, 'intake'],
    ['guard.tripped', { stage: 'evaluating' }, 'evaluating'],
    ['context.built', { stage: 'not-a-stage' }, ''],
    ['run.started', {}, ''],
    ['run.paused', null, ''],
  ])('%s %j is %s', (type, data, want) => {
    expect(stageOf(ev(type, data))).toBe(want)
  })
})

describe('the plan in the fold', () => {
  it('has no plan in a react run', () => {
    expect(foldRun(planEvents.slice(0, 1)).plan).toEqual({ route: null, plan: null, questions: [], completion: null })
  })

  it('starts with every step pending and the first current', () => {
    const p = foldRun(upTo('plan.created')).plan
    expect(p.route).toMatchObject({ route: 'loop', by: 'rules' })
    expect(p.plan).toMatchObject({ current: 1, assumptions: ['orders.txt holds the orders'], revisions: [] })
    expect(statuses(upTo('plan.created'))).toEqual(['pending', 'pending', 'pending'])
  })

  it('ticks a passed step and moves the current one on', () => {
    const p = foldRun(upTo('step.evaluated')).plan.plan
    expect(p?.steps[0]).toMatchObject({ status: 'passed', reason: 'the last order is ORD-7731' })
    expect(p?.current).toBe(2)
  })

  it('marks a failed step with its reason and keeps it current', () => {
    const p = foldRun(upTo('step.evaluated', 2)).plan.plan
    expect(p?.steps[1]).toMatchObject({ status: 'failed', reason: 'the status was not looked up' })
    expect(p?.current).toBe(2)
  })

  it('replaces the plan on a revision and keeps the reason and diff', () => {
    const p = foldRun(upTo('plan.revised')).plan.plan
    expect(p?.steps[2].acceptance).toBe('report.md names the status and the date')
    expect(p?.revisions).toHaveLength(1)
    expect(p?.revisions[0]).toMatchObject({ reason: 'the order is in the archive', iteration: 3, diff: { kept: [1, 2] } })
    expect(p?.revisions[0].diff.changed?.[0].before.tools).toEqual(['write_file'])
    expect(p?.current).toBe(2)
  })

  it('ends with every step passed and no current step', () => {
    const v = foldRun(planEvents)
    expect(statuses(planEvents)).toEqual(['passed', 'passed', 'passed'])
    expect(v.plan.plan?.current).toBe(0)
    expect(v.plan.completion).toMatchObject({ passed: true, confidence: 0.9 })
    expect(v).toMatchObject({ bestEffort: false, confidence: 0.9, confidenceReason: 'every step passed' })
  })

  it('keeps the failed completion check until the next one', () => {
    expect(foldRun(upTo('completion.checked')).plan.completion).toMatchObject({ passed: false, missing: [2, 3] })
  })

  it('opens a question on question.asked and closes it on question.answered', () => {
    const asked = foldRun(upTo('question.asked')).plan
    expect(openQuestion(asked)).toMatchObject({ id: 'question_c2', iteration: 2, asked: { argument: 'id', value: 'ORD-1' } })
    const answered = foldRun(upTo('question.answered')).plan
    expect(openQuestion(answered)).toBeNull()
    expect(answered.questions[0].answered).toMatchObject({ answer: 'ORD-7731', by: 'user' })
  })

  it('reads a best-effort finish', () => {
    const last = planEvents.at(-1)!
    const v = foldRun([...planEvents.slice(0, -1), { ...last, data: { status: 'max_iterations', answer: 'Shipped.', best_effort: true, confidence: 0.4, confidence_reason: 'step 3 never passed' } }])
    expect(v).toMatchObject({ status: 'max_iterations', bestEffort: true, confidence: 0.4, confidenceReason: 'step 3 never passed' })
  })

  it('puts each decision’s step, status, course and drift on its card, and provenance on its calls', () => {
    const its = foldRun(planEvents).iterations
    expect(its.find((it) => it.n === 1)?.decision).toEqual({ stage: 'deciding', step: 1, stepStatus: 'finished', servesGoal: 'the orders say which is last', drift: '' })
    expect(its.find((it) => it.n === 2)?.calls[0].provenance).toEqual({ id: 'inferred' })
    expect(its.find((it) => it.n === 3)?.decision?.drift).toBe('serves no step of the plan')
    expect(its.find((it) => it.n === 3)?.items.map((x) => (x.kind === 'mark' ? x.mark.kind : x.kind))).toEqual(['model', 'call', 'guard', 'evaluated', 'replan'])
  })
})

describe('currentStep', () => {
  it.each([
    [[], 0],
    [[{ id: 1, status: 'passed' }, { id: 2, status: 'failed' }], 2],
    [[{ id: 1, status: 'passed' }], 0],
  ])('%j → %i', (steps, want) => {
    expect(currentStep(steps)).toBe(want)
  })
})

describe('requiredSteps', () => {
  it('counts the required steps passed from those missing, not every step passed', () => {
    // A plan of two required steps and an optional one, all passed: the check sends 3 passed of 2 required.
    expect(requiredSteps({ steps_passed: 3, steps_required: 2 })).toEqual({ passed: 2, required: 2 })
    expect(requiredSteps({ steps_passed: 2, steps_required: 3, missing: [3] })).toEqual({ passed: 2, required: 3 })
    // An optional step passed while a required one is not.
    expect(requiredSteps({ steps_passed: 2, steps_required: 2, missing: [2] })).toEqual({ passed: 1, required: 2 })
  })

  it('has nothing to count when the run had no plan', () => {
    expect(requiredSteps({ steps_passed: 0, steps_required: 0 })).toBeNull()
    expect(requiredSteps({})).toBeNull()
  })
})
