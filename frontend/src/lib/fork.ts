import type { ForkRequest } from '../api/types'
import type { RunView } from './timeline'

/**
 * The long-term memory a fork may have: none (the default, so that it is
 * the same experiment as its source), or the memory as it stood when the
 * source started, read only or kept to.
 */
export const forkMemoryModes = ['off', 'read', 'on'] as const
export type ForkMemory = (typeof forkMemoryModes)[number]

/** ForkForm is what the Fork dialog edits, prefilled with the run's. */
export interface ForkForm {
  iteration: number
  task: string
  instructions: string
  model: string
  baseUrl: string
  memory: ForkMemory
  /** The folder the fork works in: the run's, or another chosen. */
  workspace: string
}

type RunModel = Pick<RunView, 'task' | 'instructions' | 'model' | 'baseUrl' | 'workspace'>

/** forkForm prefills the Fork dialog: iteration n, and the run's task, instructions, model, endpoint and workspace. */
export function forkForm(n: number, run: RunModel): ForkForm {
  return { iteration: n, task: run.task, instructions: run.instructions, model: run.model, baseUrl: run.baseUrl, memory: 'off', workspace: run.workspace }
}

/**
 * forkRequest is what the dialog sends. The model, base URL and workspace go only when
 * changed: the run's own are kept by the backend, whose base URL is the real
 * one, while the run log shows it masked (a secret in it reads "xxxxx").
 * Memory goes only when the fork is to have some: a fork has none by default.
 */
export function forkRequest(form: ForkForm, run: RunModel): ForkRequest {
  const req: ForkRequest = { iteration: form.iteration, task: form.task, instructions: form.instructions }
  const model = form.model.trim()
  const baseUrl = form.baseUrl.trim()
  if (model && model !== run.model) req.model = model
  if (baseUrl && baseUrl !== run.baseUrl) req.base_url = baseUrl
  if (form.memory !== 'off') req.memory = form.memory
  const workspace = form.workspace.trim()
  if (workspace && workspace !== run.workspace) req.workspace = workspace
  return req
}
