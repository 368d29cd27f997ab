// What the Evals page shows (docs/evals.md): the home's evals, an eval's
// table task × variant against its baseline, the runs behind a cell, and the
// labels a person gave runs. The shapes are those of GET /api/evals,
// GET /api/evals/{id} and GET /api/labels (backend/eval, backend/store).

/** EvalVariant is one variant of an eval, as the suite or --model set it (Go field names). */
export interface EvalVariant {
  Name?: string
  Model?: string
  BaseURL?: string
  Strategy?: string
}

/** EvalCheck is one check of a run: its kind, whether it passed, and why (in English); a judge's check has its score, the score it passes at and its reason apart, or ungraded when the judge could not say. */
export interface EvalCheck {
  kind: string
  pass: boolean
  detail: string
  score?: number
  pass_at?: number
  reason?: string
  ungraded?: boolean
}

/** EvalResult is one run of a task under a variant. */
export interface EvalResult {
  task: string
  variant: string
  rep: number
  run_id?: string
  status?: string
  pass: boolean
  error?: string
  /** error in each language ("en", "zh-CN") when Hermes worded it. */
  error_in?: Record<string, string>
  /** The judge could not grade the run: neither passed nor failed; error says why and what to do. */
  ungraded?: boolean
  checks?: EvalCheck[]
  answer?: string
  iterations: number
  tokens: number
  cost?: number
  duration_ms: number
}

export type Delta = 'improved' | 'regressed' | 'same' | 'new'

/** EvalCell is one task under one variant: its runs folded (eval.Cell). */
export interface EvalCell {
  task: string
  variant: string
  runs: number
  passed: number
  errors: number
  // runs the judge could not grade: neither passed nor failed, nor errors
  ungraded: number
  k: number
  pass_at_k: number
  pass_hat_k: number
  median_ms: number
  p95_ms: number
  tokens: number
  cost?: number
  delta?: Delta
  baseline_passed?: number
  baseline_runs?: number
}

export interface EvalBase {
  id: string
  suite: string
  suite_path: string
  tasks: string[] | null
  variants: EvalVariant[] | null
  repeat: number
  baseline?: string
  // running, done or stopped
  state: string
  started: string
  ended?: string
}

/** EvalRow is a line of GET /api/evals. */
export interface EvalRow extends EvalBase {
  passed: number
  failed: number
  ungraded: number
  errors: number
}

/** EvalDetail is GET /api/evals/{id}. */
export interface EvalDetail extends EvalBase {
  results?: EvalResult[] | null
  cells: EvalCell[] | null
}

/** RunLabel is a person's verdict on a run (store.Label). */
export interface RunLabel {
  // good or bad
  label: string
  note?: string
  updated?: string
}

export type Labels = Record<string, RunLabel>

/** LabelFilter picks runs by label: '' all, 'none' those without one. */
export type LabelFilter = '' | 'good' | 'bad' | 'none'

/** labelMatches says whether a run with label l passes filter f. */
export function labelMatches(l: RunLabel | undefined, f: LabelFilter): boolean {
  if (f === '') return true
  if (f === 'none') return !l?.label
  return l?.label === f
}

/** variantLabel names a variant as the eval's results do (eval.Variant.Label). */
export function variantLabel(v: EvalVariant): string {
  return v.Name || v.Model || 'default'
}

/** cellOf is the cell of task under variant, if the table has it. */
export function cellOf(d: EvalDetail, task: string, variant: string): EvalCell | undefined {
  return (d.cells ?? []).find((c) => c.task === task && c.variant === variant)
}

/** resultsOf are the runs of task under variant, by repetition. */
export function resultsOf(d: EvalDetail, task: string, variant: string): EvalResult[] {
  return (d.results ?? []).filter((r) => r.task === task && r.variant === variant).sort((a, b) => a.rep - b.rep)
}

/** JudgeVerdict is what the judge said of one run: its score, the score it passes at and its reason, or that it could not grade the run. */
export interface JudgeVerdict {
  rep: number
  pass: boolean
  ungraded: boolean
  score?: number
  passAt?: number
  reason: string
  /** The check's detail in English, for a result kept before the parts were. */
  detail: string
}

/** judgeReasons are the verdicts the judge gave a task's runs under a variant, one per judge check. */
export function judgeReasons(rs: EvalResult[]): JudgeVerdict[] {
  const out: JudgeVerdict[] = []
  for (const r of rs)
    for (const c of r.checks ?? [])
      if (c.kind === 'judge')
        out.push({ rep: r.rep, pass: c.pass, ungraded: !!c.ungraded, score: c.score, passAt: c.pass_at, reason: c.reason ?? '', detail: c.detail })
  return out
}

/** variantsOf are the eval's variants' names, in its order. */
export function variantsOf(d: EvalBase): string[] {
  return (d.variants ?? []).map(variantLabel)
}

/**
 * pairFor picks two runs of one task under two variants to set side by
 * side: the first run of each, a failed one first where one failed, since
 * that is the difference a person looks for.
 */
export function pairFor(d: EvalDetail, task: string, a: string, b: string): [EvalResult, EvalResult] | null {
  const pick = (v: string) => {
    const rs = resultsOf(d, task, v).filter((r) => r.run_id)
    return rs.find((r) => !r.pass) ?? rs[0]
  }
  const ra = pick(a)
  const rb = pick(b)
  return ra && rb ? [ra, rb] : null
}

/** share writes a pass rate 0–1 as a whole percentage. */
export function share(x: number): string {
  return `${Math.round(x * 100)}%`
}
