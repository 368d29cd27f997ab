import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/** A step of the scripted model (see backend/llm/llmtest/cmd/scriptmodel). */
export interface Step {
  content?: string
  tool_calls?: { id: string; name: string; arguments: string }[]
  chunks?: number
  hold?: boolean
  status?: number
  /** Streamed as reasoning_content before the text, as thinking models do. */
  reasoning?: string
  /** Wait this long before the answer's first byte, and before each stream chunk after the first. */
  delay_ms?: number
  chunk_delay_ms?: number
  /** The usage to report; absent: about four characters a token. */
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number; reasoning_tokens?: number; cached_tokens?: number }
}

export interface ModelRequest {
  model: string
  messages: { role: string; content: string; tool_call_id?: string; name?: string }[]
}

export interface ScriptModel {
  /** The base URL to give Hermes, ending in /v1. */
  url: string
  script(steps: Step[]): Promise<void>
  release(): Promise<void>
  /** Releases the held steps left one every ms milliseconds, on the model's own clock. */
  pace(ms: number): Promise<void>
  requests(): Promise<ModelRequest[]>
  state(): Promise<{ requests: number; waiting: number }>
  stop(): Promise<void>
}

/** startModel runs the scripted model process on loopback. */
export function startModel(bin: string, dir: string): Promise<ScriptModel> {
  const file = join(dir, 'script.json')
  writeFileSync(file, '[]')
  const child = spawn(bin, ['--script', file], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    lines.once('line', (url) => {
      lines.close()
      const root = url.replace(/\/v1$/, '')
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(root + path, { method, body: body === undefined ? undefined : JSON.stringify(body) })
        if (!res.ok) throw new Error(`scriptmodel ${method} ${path}: ${res.status} ${await res.text()}`)
        return res
      }
      resolve({
        url,
        script: async (steps) => void (await call('POST', '/script', steps)),
        release: async () => void (await call('POST', '/release')),
        pace: async (ms) => void (await call('POST', `/release?every=${ms}ms`)),
        requests: async () => (await (await call('GET', '/requests')).json()) as ModelRequest[],
        state: async () => (await (await call('GET', '/state')).json()) as { requests: number; waiting: number },
        stop: () => {
          child.kill('SIGTERM')
          return exited
        },
      })
    })
    child.on('error', reject)
  })
}
