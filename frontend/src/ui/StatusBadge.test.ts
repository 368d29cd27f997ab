import { describe, expect, it } from 'vitest'
import { liveState } from './StatusBadge'

describe('liveState', () => {
  it('is the one thing the badge of a live run says, the most pressing first', () => {
    const view = { paused: null, pendingApproval: null }
    expect(liveState(view, false, false)).toBe('running')
    expect(liveState(view, true, false)).toBe('pausing')
    expect(liveState({ ...view, paused: { at: 'boundary', pendingCalls: [], iteration: 1 } }, true, false)).toBe('paused')
    expect(liveState({ ...view, pendingApproval: { iteration: 1 } }, false, false)).toBe('approval')
    expect(liveState({ ...view, paused: { at: 'boundary', pendingCalls: [], iteration: 1 } }, false, true)).toBe('stopping')
  })
})
