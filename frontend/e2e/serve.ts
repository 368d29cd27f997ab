import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

export interface Served {
  /** The URL `hermes serve` printed, with its token: opening it lets the browser in. */
  url: string
  /** The server's origin and path, without the token. */
  base: string
  token: string
  /** api calls the server's API with the token, as another process would. */
  api(method: string, path: string, body?: unknown): Promise<Response>
  /** stop sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>
}

/**
 * serve starts `hermes serve` on listen (a free loopback port unless given)
 * and waits for the URL it prints.
 */
export function serve(bin: string, home: string, env: Record<string, string> = {}, listen = '127.0.0.1:0'): Promise<Served> {
  const child: ChildProcess = spawn(bin, ['serve', '--home', home, '--listen', listen], {
    env: { ...process.env, HERMES_LANG: 'en', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let stderr = ''
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()))
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)\?token=([A-Za-z0-9_-]+)/.exec(line)
      if (!m) return
      lines.close()
      const [url, base, token] = m
      resolve({
        url,
        base,
        token,
        api: (method, path, body) =>
          fetch(base + path.replace(/^\//, ''), {
            method,
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        stop: () => {
          child.kill('SIGTERM')
          return exited
        },
      })
    })
    child.on('error', reject)
    void exited.then((code) => reject(new Error(`hermes serve exited with ${code} before listening: ${stderr}`)))
  })
}
