// Wire types: the JSON that `hermes serve` and the Wails bindings return and
// accept. They are generated from the Go types (backend/api) into
// types.gen.ts by `go test ./backend/api/tsgen -write`, and re-exported
// here beside the few the UI names otherwise or keeps for itself. Event
// payloads are versioned: every field of one is optional, as a log written
// before the field existed lacks it.

import type { MemoryRef, Overrides } from './types.gen'

export * from './types.gen'

/** ResumeRequest (POST /api/runs/{id}/resume) overrides what the run recorded. */
export type ResumeRequest = Overrides

/** ModelCheckRequest (POST /api/model/check) checks another model or endpoint than the configured one. */
export type ModelCheckRequest = Overrides

/** Artifact is a full tool output as the UI reads it, over HTTP or from the window. */
export interface Artifact {
  text: string
  total: number
}

/** Why says why a memory was recalled: pinned, a preference, or the task's terms it matched and how relevant it is (longterm.Why). */
export type Why = Pick<MemoryRef, 'reason' | 'terms' | 'score' | 'relevance'>
