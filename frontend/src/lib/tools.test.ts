import { describe, expect, it } from 'vitest'
import { toolsSummary } from './tools'

describe('toolsSummary', () => {
  it('sorts the skills on and off apart from the MCP servers of hermes.toml, each with its state', () => {
    const s = toolsSummary({
      vault: '/notes',
      skills: [
        { name: 'files', source: 'builtin', runner: 'builtin', status: 'loaded', tools: ['read_file', 'write_file'] },
        { name: 'obsidian', source: 'builtin', runner: 'builtin', status: 'loaded', tools: ['search_notes'] },
        { name: 'shell', source: 'builtin', runner: 'builtin', status: 'disabled' },
        { name: 'mine', source: '/h/skills', runner: 'command', status: 'broken', problem: { en: 'bad manifest' } },
        { name: 'docs', source: 'hermes.toml', runner: 'mcp', status: 'loaded', tools: ['docs_search', 'docs_read'] },
        { name: 'off', source: 'hermes.toml', runner: 'mcp', status: 'disabled' },
        { name: 'gone', source: 'hermes.toml', runner: 'mcp', status: 'broken', problem: { en: 'start MCP server gone: not found', 'zh-CN': '无法启动' } },
      ],
    })
    expect(s.vault).toBe('/notes')
    expect(s.on).toEqual(['files', 'obsidian'])
    expect(s.off).toEqual(['shell'])
    expect(s.failed).toEqual([{ name: 'mine', problem: { en: 'bad manifest' } }])
    expect(s.servers).toEqual([
      { name: 'docs', state: 'loaded', tools: 2, problem: undefined },
      { name: 'off', state: 'off', tools: 0, problem: undefined },
      { name: 'gone', state: 'failed', tools: 0, problem: { en: 'start MCP server gone: not found', 'zh-CN': '无法启动' } },
    ])
  })

  it('says none for a toolset without a vault or skills', () => {
    expect(toolsSummary({ skills: [] })).toEqual({ vault: '', on: [], off: [], failed: [], servers: [] })
  })

  it('leaves the built-in obsidian out of the failed skills when only the vault is missing: the vault line says so', () => {
    const s = toolsSummary({
      skills: [
        { name: 'obsidian', source: 'builtin', runner: 'builtin', status: 'unavailable', problem: { en: 'skill obsidian is not set up' } },
        { name: 'winreg', source: '/h/skills/winreg', runner: 'command', status: 'unavailable', problem: { en: 'skill winreg runs only on windows' } },
      ],
    })
    expect(s.failed).toEqual([{ name: 'winreg', problem: { en: 'skill winreg runs only on windows' } }])
  })
})
