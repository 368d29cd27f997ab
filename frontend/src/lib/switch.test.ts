import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { summarizeEvent } from './events'
import { foldRun } from './timeline'

const ev = (seq: number, type: string, data: unknown): HermesEvent => ({ v: 1, run_id: 'r', seq, time: '2026-12-01T10:00:00Z', iteration: 0, type, data })

const started = ev(1, 'run.started', { task: 'Sum the notes', model: 'mb', base_url: 'http://b/v1' })
const kept = ev(2, 'run.resumed', { from_checkpoint: true, iteration: 2, model: 'mb', base_url: 'http://b/v1' })
const switched = ev(3, 'run.resumed', { from_checkpoint: true, iteration: 3, model: 'qwen3', base_url: 'http://a/v1', from_model: 'mb', from_base_url: 'http://b/v1' })

describe('a run keeps its model', () => {
  it('knows the model and endpoint it last ran with', () => {
    expect(foldRun([started])).toMatchObject({ model: 'mb', baseUrl: 'http://b/v1' })
    expect(foldRun([started, kept, switched])).toMatchObject({ model: 'qwen3', baseUrl: 'http://a/v1' })
    // A pause's resume names no model: the run's stands.
    expect(foldRun([started, ev(2, 'run.resumed', {})])).toMatchObject({ model: 'mb', baseUrl: 'http://b/v1' })
  })

  it('shows a switch in the timeline, in both languages', () => {
    expect(summarizeEvent(kept, 'en')).toBe('Resumed from the checkpoint of iteration 2')
    expect(summarizeEvent(switched, 'en')).toBe('Resumed from the checkpoint of iteration 3 · model switched: mb @ http://b/v1 → qwen3 @ http://a/v1')
    expect(summarizeEvent(switched, 'zh-CN')).toBe('从第 3 轮的检查点继续 · 已切换模型：mb @ http://b/v1 → qwen3 @ http://a/v1')
  })
})
