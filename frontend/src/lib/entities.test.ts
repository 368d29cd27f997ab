import { describe, expect, it } from 'vitest'
import { entitiesShown, shownEntities } from './entities'

const values = (n: number, prefix = 'v') => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

describe('shownEntities', () => {
  it('names the first few of hundreds, the added ones first, and counts the rest', () => {
    const kept = values(1200)
    const { shown, more } = shownEntities(kept, ['v900', 'v901'])
    expect(shown).toHaveLength(entitiesShown)
    expect(shown.slice(0, 3)).toEqual([
      { value: 'v900', added: true },
      { value: 'v901', added: true },
      { value: 'v0', added: false },
    ])
    expect(more).toBe(1200 - entitiesShown)
  })

  it('names all of a short list', () => {
    expect(shownEntities(['INV-2031', 'ACC-9981'], ['INV-2031'])).toEqual({
      shown: [
        { value: 'INV-2031', added: true },
        { value: 'ACC-9981', added: false },
      ],
      more: 0,
    })
  })

  it('shows nothing for nothing', () => {
    expect(shownEntities([], [])).toEqual({ shown: [], more: 0 })
  })
})
