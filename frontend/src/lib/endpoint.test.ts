import { describe, expect, it } from 'vitest'
import { otherEndpoint } from './endpoint'

describe('otherEndpoint', () => {
  const configured = 'https://api.openai.com/v1'
  it.each([
    ['', false],
    ['   ', false],
    ['https://api.openai.com/v1', false],
    ['https://API.openai.com/v1/', false],
    ['https://api.openai.com:443/v1', false],
    [' https://api.openai.com/v1 ', false],
    ['https://api.deepseek.com/v1', true],
    ['http://api.openai.com/v1', true],
    ['https://api.openai.com:8443/v1', true],
    ['https://api.openai.com/v2', true],
    ['http://127.0.0.1:11434/v1', true],
    ['not a url', true],
  ])('%j against the configured endpoint: %s', (typed, want) => {
    expect(otherEndpoint(typed, configured)).toBe(want)
  })
  it('takes any typed URL for another endpoint when none is configured', () => {
    expect(otherEndpoint('http://127.0.0.1:11434/v1', '')).toBe(true)
  })
  it('does not take an endpoint listed under [[model.endpoints]], which has a key of its own', () => {
    expect(otherEndpoint('https://api.deepseek.com/v1/', configured, ['https://api.deepseek.com/v1'])).toBe(false)
    expect(otherEndpoint('http://127.0.0.1:11434/v1', configured, ['https://api.deepseek.com/v1'])).toBe(true)
  })
})
