import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

export interface Served {
  url: string
  /** stop sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>
}

/** serve starts `hermes serve` on a free loopback port and waits for the URL it prints. */
export function serve(bin: string, home: string): Promise<Served> {
  const child: ChildProcess = spawn(bin, ['serve', '--home', home, '--listen', '127.0.0.1:0'], {
    env: { ...process.env, HERMES_LANG: 'en' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let stderr = ''
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()))
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(line)
      if (!m) return
      lines.close()
      resolve({
        url: m[0],
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
