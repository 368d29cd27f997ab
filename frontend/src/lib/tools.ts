import type { SkillState, Toolset } from '../api/types'

/** A [[tools.mcp]] server as the New run form names it. */
export interface ServerLine {
  name: string
  /** loaded: its tools are offered; off: turned off in [tools]; failed: not started, with why. */
  state: 'loaded' | 'off' | 'failed'
  tools: number
  /** Why it has no tools, in both languages. */
  problem?: Record<string, string>
}

/** What a new run is offered besides the file tools, as the New run form's Configured panel lists it. */
export interface ToolsSummary {
  vault: string
  /** The skills on (built-in and the user's own), by name. */
  on: string[]
  /** The skills turned off in [tools], by name. */
  off: string[]
  /** The user's skills a new run does not get, and why, in both languages: a broken skill.json, another platform's. */
  failed: { name: string; problem?: Record<string, string> }[]
  servers: ServerLine[]
}

const fromConfig = (s: SkillState) => s.source === 'hermes.toml'

/** toolsSummary sorts a Toolset into the vault, the skills on, off and failed, and the MCP servers of hermes.toml. */
export function toolsSummary(t: Toolset): ToolsSummary {
  const out: ToolsSummary = { vault: t.vault ?? '', on: [], off: [], failed: [], servers: [] }
  for (const s of t.skills ?? []) {
    if (fromConfig(s)) {
      const state = s.status === 'loaded' ? 'loaded' : s.status === 'disabled' ? 'off' : 'failed'
      out.servers.push({ name: s.name, state, tools: s.tools?.length ?? 0, problem: state === 'failed' ? s.problem : undefined })
    } else if (s.status === 'loaded') {
      out.on.push(s.name)
    } else if (s.status === 'disabled') {
      out.off.push(s.name)
    } else if (s.source !== 'builtin' || s.status === 'broken') {
      // A built-in one is unavailable only for want of the vault, whose own line says so.
      out.failed.push({ name: s.name, problem: s.problem })
    }
  }
  return out
}
