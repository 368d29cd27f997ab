/**
 * Drawn says whether the page is being drawn: whether the animation frames
 * it asks for come. A hidden tab gets none, and a page behind another may
 * get one a second; what such a page draws waits for that rare frame and
 * is laid out and painted all at once in it.
 */
export interface Drawn {
  now(): boolean
  set(drawn: boolean): void
}

export function createDrawn(): Drawn {
  let drawn = true
  return {
    now: () => drawn,
    set: (v) => void (drawn = v),
  }
}

/** pageDrawn is this page's: the run store's frames learn it (createFrame), the timeline reads it. */
export const pageDrawn = createDrawn()
