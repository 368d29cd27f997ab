// Keyboard shortcuts of the run page, as data: the help overlay lists them
// and the page maps key presses through shortcutFor.

export type ShortcutAction =
  | 'toggle_pause'
  | 'next_iteration'
  | 'prev_iteration'
  | 'inject'
  | 'stop'
  | 'replay'
  | 'replay_play'
  | 'replay_next'
  | 'replay_prev'
  | 'search'
  | 'goto'
  | 'first_iteration'
  | 'last_iteration'
  | 'help'
  | 'close'

export interface Shortcut {
  keys: string[]
  action: ShortcutAction
}

export const shortcuts: Shortcut[] = [
  { keys: ['Space'], action: 'toggle_pause' },
  { keys: ['j', '↓'], action: 'next_iteration' },
  { keys: ['k', '↑'], action: 'prev_iteration' },
  { keys: ['i'], action: 'inject' },
  { keys: ['s'], action: 'stop' },
  { keys: ['r'], action: 'replay' },
  { keys: ['p'], action: 'replay_play' },
  { keys: ['→'], action: 'replay_next' },
  { keys: ['←'], action: 'replay_prev' },
  { keys: ['/', 'Ctrl+F'], action: 'search' },
  { keys: ['g'], action: 'goto' },
  { keys: ['Home'], action: 'first_iteration' },
  { keys: ['End'], action: 'last_iteration' },
  { keys: ['?'], action: 'help' },
  { keys: ['Esc'], action: 'close' },
]

export interface KeyPress {
  key: string
  ctrlKey?: boolean
  metaKey?: boolean
  altKey?: boolean
  /** The focus is in a text field, where keys are text. */
  inField?: boolean
}

const byKey: Record<string, ShortcutAction> = {
  ' ': 'toggle_pause',
  j: 'next_iteration',
  ArrowDown: 'next_iteration',
  k: 'prev_iteration',
  ArrowUp: 'prev_iteration',
  i: 'inject',
  s: 'stop',
  r: 'replay',
  p: 'replay_play',
  ArrowRight: 'replay_next',
  ArrowLeft: 'replay_prev',
  '/': 'search',
  g: 'goto',
  Home: 'first_iteration',
  End: 'last_iteration',
  '?': 'help',
  Escape: 'close',
}

/** shortcutFor maps a key press to an action, or null when the key is not ours. */
export function shortcutFor(k: KeyPress): ShortcutAction | null {
  // Ctrl+F (Cmd+F) searches the run, not the page: the page holds only the cards on screen.
  if ((k.ctrlKey || k.metaKey) && !k.altKey && k.key.toLowerCase() === 'f') return 'search'
  if (k.ctrlKey || k.metaKey || k.altKey) return null
  if (k.inField) return k.key === 'Escape' ? 'close' : null
  return byKey[k.key] ?? null
}
