import { describe, expect, it } from 'vitest'
import { panelOpen, setPanelOpen, type PanelStorage } from './panels'

function memoryStorage(): PanelStorage & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) }
}

describe('panels', () => {
  it('are open until closed, and each remembers its own state', () => {
    const s = memoryStorage()
    expect(panelOpen(s, 'answer')).toBe(true)
    setPanelOpen(s, 'answer', false)
    expect(panelOpen(s, 'answer')).toBe(false)
    expect(panelOpen(s, 'plan')).toBe(true)
    setPanelOpen(s, 'answer', true)
    expect(panelOpen(s, 'answer')).toBe(true)
    expect([...s.items.keys()]).toEqual(['hermes.panel.answer'])
  })

  it('stay open when there is no storage or it refuses', () => {
    const refusing: PanelStorage = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('full')
      },
    }
    expect(panelOpen(null, 'plan')).toBe(true)
    expect(panelOpen(refusing, 'plan')).toBe(true)
    expect(() => setPanelOpen(refusing, 'plan', false)).not.toThrow()
  })
})
