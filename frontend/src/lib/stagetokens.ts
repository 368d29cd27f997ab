import type { HermesEvent, ModelDecidedData, RunFinishedData, Usage } from '../api/types'
import { obj } from './iteration'

/** The stages a run's tokens are split by (Totals.stage_tokens), in the order they are shown. */
export const stageOrder = ['route', 'plan', 'decide', 'evaluate', 'answer', 'summary'] as const
export type Stage = (typeof stageOrder)[number]

/** The stage whose requests an event's usage counts, for the events that carry one. */
const stageOfEvent: Record<string, Stage> = {
  'route.decided': 'route',
  'plan.created': 'plan',
  'plan.revised': 'plan',
  'step.evaluated': 'evaluate',
  'completion.checked': 'evaluate',
  'summary.updated': 'summary',
}

/**
 * addStageTokens adds what one event spent to a run's tokens by stage (a
 * new object when it changes). A decision counts under the stage it says
 * (spent), a direct answer under answer, a compression's summary call
 * under summary; run.finished's totals replace the sum.
 */
/** usageTotal is a usage's tokens: its total, or prompt plus completion for
 * the endpoints that leave the total out, as the Go fold counts them. */
export function usageTotal(u: Usage | undefined): number {
  return u?.total_tokens || (u?.prompt_tokens ?? 0) + (u?.completion_tokens ?? 0)
}

export function addStageTokens(acc: Readonly<Record<string, number>>, e: HermesEvent): Readonly<Record<string, number>> {
  if (e.type === 'run.finished') {
    const st = obj<RunFinishedData>(e.data).totals?.stage_tokens
    return st && Object.keys(st).length > 0 ? { ...st } : acc
  }
  let stage: string | undefined = stageOfEvent[e.type]
  if (e.type === 'model.decided') {
    const d = obj<ModelDecidedData>(e.data)
    stage = d.spent || (d.stage === 'intake' ? 'answer' : 'decide')
  }
  const n = stage ? usageTotal(obj<{ usage?: Usage }>(e.data).usage) : 0
  if (!stage || n <= 0) return acc
  return { ...acc, [stage]: (acc[stage] ?? 0) + n }
}

/** stageTokenList lists the stages that spent tokens, in order; empty when one stage spent them all. */
export function stageTokenList(acc: Readonly<Record<string, number>>): { stage: Stage; tokens: number }[] {
  const list = stageOrder.filter((s) => (acc[s] ?? 0) > 0).map((stage) => ({ stage, tokens: acc[stage] }))
  return list.length > 1 ? list : []
}
