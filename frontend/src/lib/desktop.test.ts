import { describe, expect, it } from 'vitest'
import { t } from '../i18n/i18n'
import {
  asDrop,
  desktopBindings,
  externalLink,
  linkClicked,
  noteRun,
  recentLimit,
  recentWorkspaces,
  rememberWorkspace,
  screenKey,
  titleState,
  titleText,
  workspaceChoices,
  type FrontRun,
  type LinkClick,
} from './desktop'

const page = 'wails://wails.localhost:34115/#/runs/r1'

describe('externalLink', () => {
  it.each([
    ['https://example.com/docs', 'https://example.com/docs'],
    ['http://example.com/a?b=1#c', 'http://example.com/a?b=1#c'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    ['obsidian://open?vault=notes&file=Plan', 'obsidian://open?vault=notes&file=Plan'],
  ])('hands %s to the system', (href, want) => {
    expect(externalLink(href, page)).toBe(want)
  })

  it.each([
    ['#/runs/r2'], // a route of the UI
    ['/api/runs'], // the page's own server
    ['javascript:alert(1)'],
    ['file:///etc/passwd'],
    [''],
    [null],
  ])('leaves %s to the page', (href) => {
    expect(externalLink(href, page)).toBeNull()
  })

  it('leaves a link to the page’s own server to it, in a browser too', () => {
    expect(externalLink('http://127.0.0.1:7777/favicon.svg', 'http://127.0.0.1:7777/#/')).toBeNull()
    expect(externalLink('https://example.com/', 'http://127.0.0.1:7777/#/')).toBe('https://example.com/')
  })
})

function click(href: string | null, extra: Partial<LinkClick> = {}): LinkClick & { prevented: boolean } {
  const anchor = href === null ? null : { getAttribute: (n: string) => (n === 'href' ? href : null) }
  const e = {
    target: { closest: (sel: string) => (sel === 'a[href]' ? anchor : null) },
    button: 0,
    defaultPrevented: false,
    prevented: false,
    preventDefault() {
      e.prevented = true
    },
    ...extra,
  }
  return e
}

describe('linkClicked', () => {
  it('opens a link of an answer in the system and keeps the page', () => {
    const opened: string[] = []
    const e = click('https://example.com/report')
    expect(linkClicked(e, page, (u) => opened.push(u))).toBe(true)
    expect(opened).toEqual(['https://example.com/report'])
    expect(e.prevented).toBe(true)
  })

  it('lets the page follow its own routes, and clicks on no link', () => {
    const opened: string[] = []
    for (const e of [click('#/new'), click(null), { ...click('https://x.org'), target: null }]) {
      expect(linkClicked(e, page, (u) => opened.push(u))).toBe(false)
    }
    expect(opened).toEqual([])
  })

  it('opens a middle click too, and leaves a click already handled or with another button', () => {
    const opened: string[] = []
    expect(linkClicked(click('https://a.org', { button: 1 }), page, (u) => opened.push(u))).toBe(true)
    expect(linkClicked(click('https://b.org', { button: 2 }), page, (u) => opened.push(u))).toBe(false)
    expect(linkClicked(click('https://c.org', { defaultPrevented: true }), page, (u) => opened.push(u))).toBe(false)
    expect(opened).toEqual(['https://a.org/'])
  })
})

describe('desktopBindings', () => {
  it('finds the desktop methods in the window only', () => {
    const OpenURL = () => Promise.resolve()
    expect(desktopBindings({})).toBeUndefined()
    expect(desktopBindings({ go: { app: { App: {} } } })).toBeUndefined() // a window built before them
    const app = { OpenURL }
    expect(desktopBindings({ go: { app: { App: app } } })).toBe(app)
  })
})

const run: FrontRun = { title: '', task: 'Summarise the notes', status: 'running', paused: false, waitingApproval: false, waitingAnswer: false }

describe('the window title', () => {
  it('says the run in front and what it waits for', () => {
    const waiting = { ...run, waitingApproval: true }
    expect(titleText(waiting, t('en', titleState(waiting)))).toBe('Summarise the notes · waiting for approval')
    expect(titleText(waiting, t('zh-CN', titleState(waiting)))).toBe('Summarise the notes · 等待审批')
  })

  it.each<[Partial<FrontRun>, string]>([
    [{ waitingAnswer: true }, 'title.state.answer'],
    [{ paused: true }, 'title.state.paused'],
    [{}, 'title.state.running'],
    [{ status: 'finished' }, 'title.state.finished'],
    [{ status: 'failed' }, 'title.state.failed'],
    [{ status: 'guard' }, 'title.state.guard'],
    [{ status: 'stopped' }, 'title.state.stopped'],
    [{ status: 'budget' }, 'title.state.limit'],
    [{ status: 'max_iterations' }, 'title.state.limit'],
    [{ waitingApproval: true, waitingAnswer: true, paused: true }, 'title.state.approval'],
  ])('%o is %s', (patch, want) => {
    expect(titleState({ ...run, ...patch })).toBe(want)
  })

  it('prefers the run’s title, and cuts a long one', () => {
    expect(titleText({ ...run, title: 'Notes' }, 'running')).toBe('Notes · running')
    const long = titleText({ ...run, task: 'word '.repeat(40) }, 'running')
    expect(long.endsWith('… · running')).toBe(true)
    expect(long.length).toBe(60 + ' · running'.length)
  })
})

function memoryStorage(): { getItem(k: string): string | null; setItem(k: string, v: string): void } {
  const m = new Map<string, string>()
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) }
}

describe('recent workspaces', () => {
  it('keeps the latest first, each once, up to the limit', () => {
    const s = memoryStorage()
    for (let i = 0; i < recentLimit + 2; i++) rememberWorkspace(s, `/w/${i}`)
    rememberWorkspace(s, '/w/3')
    rememberWorkspace(s, '  ')
    const list = recentWorkspaces(s)
    expect(list[0]).toBe('/w/3')
    expect(list).toHaveLength(recentLimit)
    expect(new Set(list).size).toBe(recentLimit)
  })

  it('reads nothing from a damaged entry or no storage', () => {
    const s = memoryStorage()
    s.setItem('hermes.recent_workspaces', '{')
    expect(recentWorkspaces(s)).toEqual([])
    expect(recentWorkspaces(null)).toEqual([])
  })

  it('offers those chosen here, then the runs’, never the sample’s', () => {
    const runs = [{ workspace: '/a' }, { workspace: '/b' }, { workspace: '/sample', sample: true }, { workspace: '' }]
    expect(workspaceChoices(['/b', '/c'], runs)).toEqual(['/b', '/c', '/a'])
  })
})

describe('drops and screens', () => {
  it('reads a drop', () => {
    expect(asDrop({ kind: 'folder', path: '/w' })).toEqual({ kind: 'folder', path: '/w', note: undefined })
    expect(asDrop({ kind: 'note', path: '/v/a.md', note: 'a.md' })).toEqual({ kind: 'note', path: '/v/a.md', note: 'a.md' })
    for (const d of [null, 'x', { kind: 'file', path: '/x' }, { kind: 'folder', path: '' }]) expect(asDrop(d)).toBeNull()
  })

  it('shows a dropped note on the run in front, else on the first listed', () => {
    expect(noteRun('r-front', ['r-live', 'r-old'])).toBe('r-front')
    expect(noteRun('', ['r-live', 'r-old'])).toBe('r-live')
    expect(noteRun('', [])).toBe('')
  })

  it('names a screen by its size', () => {
    expect(screenKey({ width: 1920, height: 1080 })).toBe('1920x1080')
  })
})
