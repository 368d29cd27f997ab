import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { translator } from '../i18n/i18n'
import { alwaysPattern, approvalChoices, approvalReason, blockedLine, callSandbox, runSandbox } from './sandbox'
import { foldRun } from './timeline'

const en = translator('en')
const zh = translator('zh-CN')

describe('runSandbox', () => {
  it('says how commands are confined in one line, and how and what it cannot stop in its detail', () => {
    const s = runSandbox(en, {
      mode: 'workspace',
      enforced: true,
      how: 'Landlock ABI 7, seccomp',
      gaps: ['a process that starts a session of its own may outlive its command'],
    })
    expect(s).toEqual({
      enforced: true,
      text: 'sandboxed · workspace · no network',
      detail: [
        'Commands read the system and your files but write only in the workspace and a private temp folder; the Hermes home and your credentials are hidden from them.',
        'Confined by Landlock ABI 7, seccomp.',
        'Not stopped on this machine: a process that starts a session of its own may outlive its command.',
      ],
    })
    expect(runSandbox(en, { mode: 'read-only', network: true, enforced: true })?.text).toBe('sandboxed · read-only · network')
    expect(runSandbox(zh, { mode: 'workspace', enforced: true })?.text).toBe('沙箱中运行 · 工作区 · 无网络')
  })

  it('warns with the backend’s reason when commands are not confined', () => {
    const why = 'this Linux kernel has no Landlock (it needs 5.13 or later with landlock among its security modules, lsm=): commands run as you and every one is asked about'
    const s = runSandbox(en, { mode: 'workspace', enforced: false, why })
    expect(s?.enforced).toBe(false)
    expect(s?.text).toBe(`not sandboxed: ${why}`)
    expect(runSandbox(en, { mode: 'off', enforced: false })).toEqual({
      enforced: false,
      text: 'not sandboxed',
      detail: ['Commands run with your rights: they can write, read and reach whatever you can.'],
    })
    // The reason comes translated already; the UI words the rest.
    expect(runSandbox(zh, { mode: 'off', enforced: false, why: '[tools] sandbox 为 "off"' })?.text).toBe('未在沙箱中：[tools] sandbox 为 "off"')
  })

  it('shows a mode it does not know by its name, and nothing for a run logged before the sandbox', () => {
    expect(runSandbox(en, { mode: 'container', enforced: true })?.text).toBe('sandboxed · container · no network')
    expect(runSandbox(en, undefined)).toBeNull()
    expect(runSandbox(en, null)).toBeNull()
  })
})

describe('callSandbox', () => {
  it('lists what the sandbox blocked, in words of each kind, before saying it was confined', () => {
    const s = callSandbox(en, {
      confined: true,
      blocked: [
        { kind: 'write', what: '/tmp/e2e/outside.txt' },
        { kind: 'read', what: '/home/me/.ssh/id_ed25519', by: 'cat' },
        { kind: 'network', what: 'socket(AF_INET)', by: 'curl' },
        { kind: 'call', what: 'unshare' },
        { kind: 'link', what: '/w/passwd' },
        { kind: 'process', what: '/proc/1/environ' },
        { kind: 'mount', what: '/mnt' },
      ],
    })
    expect(s?.state).toBe('blocked')
    expect(s?.label).toBe('blocked by the sandbox')
    expect(s?.blocked).toEqual([
      'write /tmp/e2e/outside.txt (outside the workspace)',
      'read /home/me/.ssh/id_ed25519 by cat (hidden)',
      'network: socket(AF_INET) by curl',
      'call unshare (it could leave the sandbox)',
      'link /w/passwd (from outside the workspace)',
      'read /proc/1/environ (another process)',
      'mount /mnt',
    ])
  })

  it('says in Chinese who did what', () => {
    expect(blockedLine(zh, { kind: 'network', what: 'socket(AF_INET)', by: 'curl' })).toBe('由 curl 联网：socket(AF_INET)')
    expect(blockedLine(zh, { kind: 'write', what: '/tmp/x' })).toBe('写入 /tmp/x（工作区之外）')
  })

  it('tells a confined call, one that escaped and one that was not confined apart', () => {
    expect(callSandbox(en, { confined: true })).toMatchObject({ state: 'confined', label: 'sandboxed', blocked: [] })
    expect(callSandbox(en, { confined: false, escaped: true })).toMatchObject({ state: 'escaped', label: 'ran outside the sandbox' })
    const off = callSandbox(en, { confined: false, why: '[tools] sandbox is "off"' })
    expect(off).toMatchObject({ state: 'unconfined', label: 'not sandboxed', hint: '[tools] sandbox is "off"' })
    expect(callSandbox(en, { confined: false })?.hint).toBe('This command ran with your rights: the sandbox is off, or this OS has none.')
    expect(callSandbox(en, undefined)).toBeNull()
  })
})

describe('approvalChoices', () => {
  it('offers the lasting answers and the patterns joined as the answer takes them', () => {
    const c = approvalChoices({
      commands: ['git status', 'grep -n TODO $(ls)'],
      risky: ['command substitution $(…)'],
      patterns: ['git status', 'grep -n TODO *'],
    })
    expect(c).toEqual({
      escaping: false,
      lasting: true,
      commands: ['git status', 'grep -n TODO $(ls)'],
      risky: ['command substitution $(…)'],
      offered: 'git status; grep -n TODO *',
    })
  })

  it('offers only once or deny for a call escaping the sandbox', () => {
    expect(approvalChoices({ escaping: true, commands: ['echo x > ../outside.txt'] })).toMatchObject({ escaping: true, lasting: false })
    expect(approvalChoices({})).toEqual({ escaping: false, lasting: true, commands: [], risky: [], offered: '' })
  })
})

describe('approvalReason', () => {
  it('says why in the page’s language, whatever the process’s, and what an older log says without one', () => {
    const asked = {
      reason: 'write_file is a write tool and [tools.risk] write = "ask"',
      reason_in: { en: 'write_file is a write tool and [tools.risk] write = "ask"', 'zh-CN': 'write_file 是 write 类工具，且 [tools.risk] write = "ask"' },
    }
    expect(approvalReason(asked, 'zh-CN')).toBe('write_file 是 write 类工具，且 [tools.risk] write = "ask"')
    expect(approvalReason({ ...asked, reason: asked.reason_in['zh-CN'] }, 'en')).toBe('write_file is a write tool and [tools.risk] write = "ask"')
    expect(approvalReason({ reason: 'write tools are asked' }, 'zh-CN')).toBe('write tools are asked')
    expect(approvalReason({}, 'en')).toBe('')
  })
})

describe('alwaysPattern', () => {
  it('sends what is in the field, or the patterns offered once it is emptied', () => {
    expect(alwaysPattern(' git status; git diff * ', 'git status')).toBe('git status; git diff *')
    expect(alwaysPattern('  ', 'git status; grep -n TODO *')).toBe('git status; grep -n TODO *')
    expect(alwaysPattern('', '')).toBe('')
  })
})

describe('the fold', () => {
  const ev = (seq: number, iteration: number, type: string, data: unknown): HermesEvent => ({ v: 1, run_id: 'r1', seq, time: '2026-11-30T01:00:00Z', iteration, type, data })
  const sandbox = { mode: 'workspace', enforced: true, how: 'Landlock ABI 7, seccomp' }
  const call = { id: 'c1', name: 'execute_command', arguments: '{"command":"echo x > ../outside.txt","outside_sandbox":true}', valid: true }
  const events = [
    ev(1, 0, 'run.started', { task: 't', sandbox }),
    ev(2, 1, 'iteration.started', {}),
    ev(3, 1, 'model.decided', { tool_calls: [call] }),
    ev(4, 1, 'approval.requested', { approval_id: 'a1', call_id: 'c1', name: 'execute_command', risk: 'exec', escaping: true, commands: ['echo x > ../outside.txt'] }),
  ]

  it('keeps the run’s sandbox, a call’s escape while it is asked, and how its process ran', () => {
    const asked = foldRun(events)
    expect(asked.sandbox).toEqual(sandbox)
    expect(asked.iterations[1].calls[0].approval?.escaping).toBe(true)
    expect(asked.pendingApproval?.escaping).toBe(true)
    const ran = foldRun([
      ...events,
      ev(5, 1, 'approval.resolved', { approval_id: 'a1', call_id: 'c1', decision: 'allow_once', by: 'user' }),
      ev(6, 1, 'tool.started', { call_id: 'c1', attempt: 1 }),
      ev(7, 1, 'tool.finished', { call_id: 'c1', ok: true, result: '', attempt: 1, sandbox: { confined: false, escaped: true } }),
    ])
    const c = ran.iterations[1].calls[0]
    expect(c.approval).toMatchObject({ escaping: true, decision: 'allow_once' })
    expect(c.sandbox).toEqual({ confined: false, escaped: true })
    expect(foldRun([ev(1, 0, 'run.started', { task: 't' })]).sandbox).toBeNull()
  })
})
