import { en, type Catalog, type MessageKey } from './messages'
import { zh } from './messages_zh'

export type Lang = 'en' | 'zh-CN'
export const catalogs: Record<Lang, Catalog> = { en, 'zh-CN': zh }
export const langs: readonly Lang[] = ['en', 'zh-CN']
export const langNames: Record<Lang, string> = { en: 'English', 'zh-CN': '中文' }

export type Vars = Record<string, string | number>

/** parseLang maps a locale name ("zh", "zh-Hans-CN", "zh_CN.UTF-8", "en-GB") to a Lang, or undefined. */
export function parseLang(locale: string | null | undefined): Lang | undefined {
  if (!locale) return undefined
  const l = locale.trim().toLowerCase()
  if (l.startsWith('zh')) return 'zh-CN'
  if (l.startsWith('en')) return 'en'
  return undefined
}

/**
 * detectLang picks the language: a stored choice first, then the backend's
 * (the desktop app follows the system's locale), then the browser's list.
 */
export function detectLang(stored: string | null | undefined, backend: string | null | undefined, browser: readonly string[]): Lang {
  for (const c of [stored, backend, ...browser]) {
    const l = parseLang(c)
    if (l) return l
  }
  return 'en'
}

/**
 * t renders key in lang, replacing each {name} with vars[name]. A count of
 * one ({n} or {count} is 1) takes the key's singular, KEY_one, where the
 * catalogs have one: "1 error", not "1 errors".
 */
export function t(lang: Lang, key: MessageKey, vars: Vars = {}): string {
  const count = vars.n ?? vars.count
  const one = count !== undefined && String(count) === '1' ? (`${key}_one` as MessageKey) : undefined
  const template = (one && (catalogs[lang][one] ?? catalogs.en[one])) || catalogs[lang][key] || catalogs.en[key] || key
  // Most texts have no {name}: cards call t for each label at each draw.
  if (!template.includes('{')) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
}

export type Translate = (key: MessageKey, vars?: Vars) => string

const translators = new Map<Lang, Translate>()

/** translator binds t to one language, for components; the same function each time, so memoised components stay put. */
export function translator(lang: Lang): Translate {
  let tr = translators.get(lang)
  if (!tr) {
    tr = (key, vars) => t(lang, key, vars)
    translators.set(lang, tr)
  }
  return tr
}
