import { describe, expect, it } from 'vitest'
import { forkForm, forkRequest } from './fork'

const run = { task: 'Sum the notes', instructions: 'Be brief', model: 'mb', baseUrl: 'http://user:xxxxx@127.0.0.1:9/v1', workspace: '/w/notes' }

describe('forkForm and forkRequest', () => {
  it('prefills the dialog with the run’s model and endpoint', () => {
    expect(forkForm(2, run)).toEqual({ iteration: 2, task: 'Sum the notes', instructions: 'Be brief', model: 'mb', baseUrl: 'http://user:xxxxx@127.0.0.1:9/v1', memory: 'off', workspace: '/w/notes' })
  })

  it('sends a workspace only when another folder was chosen', () => {
    expect(forkRequest(forkForm(2, run), run).workspace).toBeUndefined()
    expect(forkRequest({ ...forkForm(2, run), workspace: ' ' }, run).workspace).toBeUndefined()
    expect(forkRequest({ ...forkForm(2, run), workspace: ' /w/copy ' }, run).workspace).toBe('/w/copy')
  })

  it('sends no model or endpoint left as they were, so the backend keeps the run’s (and the real, unmasked URL)', () => {
    expect(forkRequest(forkForm(2, run), run)).toEqual({ iteration: 2, task: 'Sum the notes', instructions: 'Be brief' })
    expect(forkRequest({ ...forkForm(2, run), model: ' ', baseUrl: '' }, run)).toEqual({ iteration: 2, task: 'Sum the notes', instructions: 'Be brief' })
  })

  it('sends a changed model or endpoint', () => {
    const form = { ...forkForm(3, run), model: ' qwen3 ', baseUrl: 'http://127.0.0.1:8/v1' }
    expect(forkRequest(form, run)).toEqual({ iteration: 3, task: 'Sum the notes', instructions: 'Be brief', model: 'qwen3', base_url: 'http://127.0.0.1:8/v1' })
    expect(forkRequest({ ...forkForm(3, run), model: 'qwen3' }, run)).toEqual({ iteration: 3, task: 'Sum the notes', instructions: 'Be brief', model: 'qwen3' })
  })

  it('sends no memory for a fork without it (the backend’s default), and the memory asked for', () => {
    expect(forkRequest(forkForm(2, run), run).memory).toBeUndefined()
    expect(forkRequest({ ...forkForm(2, run), memory: 'read' }, run).memory).toBe('read')
    expect(forkRequest({ ...forkForm(2, run), memory: 'on' }, run).memory).toBe('on')
  })
})
