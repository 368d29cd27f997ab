import { defaultRangeExtractor, elementScroll, useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { pageDrawn } from '../lib/drawn'
import type { CardHit } from '../lib/search'
import type { CallView, IterationView } from '../lib/timeline'
import { IterationCard } from './IterationCard'
import type { Pins } from './MessageView'
import { useAppState, useT } from './appContext'

interface TimelineProps {
  iterations: IterationView[]
  selected: number | null
  live: boolean
  onSelect: (n: number) => void
  onFork: (n: number) => void
  onArtifact: (call: CallView) => void
  pins: Pins
  /** The conversation index of each tool call's result, once a request carried it. */
  resultIndexes: Map<string, number>
  /** The search hit shown, in the card of iteration hitN. */
  hit?: (CardHit & { n: number }) | null
  /** A request to bring card n's header (or, with a hit, the hit) into view; each new key asks again. */
  reveal?: Reveal | null
}

export interface Reveal {
  n: number
  key: number
}

// A first guess at a card's height from what it holds, so the scrollbar is
// about right before the cards are measured.
function estimate(it: IterationView): number {
  let h = 44
  for (const item of it.items) {
    if (item.kind === 'model') h += 24 + Math.min(6, Math.ceil((it.thought || it.streamed).length / 120)) * 18
    else if (item.kind === 'call') h += 62
    else h += 28
  }
  return h + 12
}

/**
 * followRange is the cards to draw while the list follows the newest one:
 * the virtualizer's own range, and the cards that fill the viewport's height
 * at the end (with the overscan before them). The virtualizer learns the
 * list was scrolled to its end only from the next scroll event, a frame or
 * more later on a busy page; until then its range is where the list was,
 * and a new card would wait for that event to be drawn. On a page not being
 * drawn (drawn false) it is the end alone, without the overscan.
 */
export function followRange(range: Range, size: (i: number) => number, viewport: number, step = 1, drawn = true): number[] {
  if (range.count === 0) return defaultRangeExtractor(range)
  let first = range.count - 1
  for (let h = size(first); first > 0 && h < viewport; h += size(first)) first--
  first = Math.max(0, first - (drawn ? range.overscan : 0))
  // The cards above are let go `step` at a time, not one at each new card:
  // each let go is a change of the page to lay out and paint, at every
  // iteration of a live run otherwise.
  const from = (i: number) => i - (i % step)
  const start = from(Math.max(0, range.startIndex - range.overscan))
  const end = Math.min(range.count - 1, range.endIndex + range.overscan)
  first = from(first)
  const out: number[] = []
  // A page not being drawn (pageDrawn) draws only the end: its next frame,
  // a second away, lays out and paints what is in the page then, and the
  // cards it scrolls past on the way need not be there.
  if (drawn) for (let i = start; i <= end && i < first; i++) out.push(i)
  for (let i = first; i < range.count; i++) out.push(i)
  return out
}

/** followStep is how many cards above the viewport a following list lets go at once (followRange). */
const followStep = 8

/** atEnd says whether a list of height total, scrolled to offset in a viewport of height viewport, shows its end (within 48 px). */
export function atEnd(total: number, offset: number, viewport: number): boolean {
  return total - offset - viewport < 48
}

/**
 * cardSize is a card's height for the virtualizer. The ResizeObserver's
 * entry gives it after the browser's own layout of the frame, at no cost; a
 * card measured before keeps its size. A new card's element just mounted
 * has neither: reading its offsetHeight lays the page out at once, in the
 * middle of React's commit, and again for the frame. While the list follows
 * a live run, where a card comes with nearly every fold, the new card keeps
 * its estimate until the observer reports it, later in the same frame.
 */
export function cardSize(el: HTMLElement, entry: ResizeObserverEntry | undefined, size: { measured?: number; estimated?: number }, following: boolean): number {
  const box = entry?.borderBoxSize?.[0]
  if (box) return Math.round(box.blockSize)
  if (!entry && size.measured !== undefined) return size.measured
  if (!entry && following && size.estimated !== undefined) return size.estimated
  return el.offsetHeight
}

/** Known is the offset the follow scrolled the list to, until a scroll event reports it. */
export interface Known {
  offset: number | null
  /** The last scroll event was the follow's own. */
  own?: boolean
}

/**
 * offsetObserver tells the virtualizer where the list is scrolled, as the
 * library's own observer does (each scroll event, and once more when the
 * scrolling has been still for a while), except that the scroll the
 * follow made is reported, as over, at the offset the follow read as it
 * made it. The element's scrollTop (and, for a scroll in progress, its
 * scrollHeight), read at the scroll event, would lay the page out again
 * whenever a fold came in since the frame: on nearly every one while
 * following a live run.
 */
export function offsetObserver(known: Known) {
  return (instance: Virtualizer<HTMLDivElement, Element>, cb: (offset: number, isScrolling: boolean) => void) => {
    const el = instance.scrollElement
    if (!el) return
    let still: ReturnType<typeof setTimeout> | undefined
    const onScroll = () => {
      // The follow's jump is told as a scroll already over: one in progress
      // has the virtualizer read the element's height to check it.
      known.own = known.offset !== null
      if (known.offset !== null) {
        cb(known.offset, false)
        known.offset = null
        return
      }
      const offset = el.scrollTop
      clearTimeout(still)
      still = setTimeout(() => cb(el.scrollTop, false), instance.options.isScrollingResetDelay)
      cb(offset, true)
    }
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      el.removeEventListener('scroll', onScroll)
      clearTimeout(still)
    }
  }
}

/**
 * Timeline is the run's cards in a virtual list: only the cards on screen
 * are in the page, so a run of a thousand iterations scrolls like a short
 * one. While the run is live and the list is at its end, it follows the
 * newest card.
 */
export function Timeline({ iterations, selected, live, onSelect, onFork, onArtifact, pins, resultIndexes, hit = null, reveal = null }: TimelineProps) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const scrollRef = useRef<HTMLDivElement>(null)
  const [follow, setFollow] = useState(true)
  // The list's functions read the latest cards through a ref and keep their
  // identity: a new function each fold would make the virtualizer lay out
  // every card's slot again, a thousand for a long run, on every live event.
  const its = useRef(iterations)
  its.current = iterations
  const estimateSize = useCallback((i: number) => estimate(its.current[i]), [])
  const getItemKey = useCallback((i: number) => its.current[i].n, [])
  const getScrollElement = useCallback(() => scrollRef.current, [])
  // While following, the end of the list is drawn whatever the virtualizer
  // last heard of the scroll position (followRange).
  const following = useRef(false)
  following.current = live && follow
  const self = useRef<Virtualizer<HTMLDivElement, Element> | null>(null)
  const rangeExtractor = useCallback((range: Range) => {
    const v = self.current
    // The viewport's height as the virtualizer last measured it: reading the element's would lay the page out.
    if (!following.current || !v?.scrollRect) return defaultRangeExtractor(range)
    // A page not being drawn lets each card above go at once: its DOM is laid out only at its rare frames.
    const drawn = pageDrawn.now()
    return followRange(range, (i) => v.measurementsCache[i]?.size ?? 0, v.scrollRect.height, drawn ? followStep : 1, drawn)
  }, [])
  const measureElement = useCallback((el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLDivElement, Element>) => {
    const i = v.indexFromElement(el)
    return cardSize(el as HTMLElement, entry, { measured: v.itemSizeCache.get(its.current[i]?.n), estimated: v.measurementsCache[i]?.size }, following.current)
  }, [])
  // Any other scroll (the virtualizer's own, a person's) is read from the element.
  const known = useRef<Known>({ offset: null })
  const observeElementOffset = useMemo(() => offsetObserver(known.current), [])
  const scrollToFn = useCallback((offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, v: Virtualizer<HTMLDivElement, Element>) => {
    known.current.offset = null
    elementScroll(offset, options, v)
  }, [])
  const virtualizer = useVirtualizer({
    count: iterations.length,
    measureElement,
    observeElementOffset,
    scrollToFn,
    getScrollElement,
    estimateSize,
    overscan: 4,
    gap: 8,
    paddingStart: 8,
    paddingEnd: 8,
    getItemKey,
    rangeExtractor,
    // The list's height and the cards' places are written to the page by the
    // virtualizer itself, as it learns them, and the list is drawn again only
    // when the range of cards changes. A live run's new card, measured after
    // the frame's layout, otherwise gave the list its true height in a React
    // redraw of its own: a second frame to lay out, paint and layerize.
    directDomUpdates: true,
    directDomUpdatesMode: 'position',
  })
  self.current = virtualizer

  const last = iterations.length - 1
  // Following keeps the end in view. The list's height changes with each new
  // card or item and each card measured anew; the observer is told after the
  // browser has laid out the frame, so reading the height and scrolling there
  // cost no layout of their own (a layout effect would lay the page out once
  // more per fold, in the middle of React's commit).
  const sizedRef = useRef<HTMLDivElement | null>(null)
  const setSized = useCallback(
    (el: HTMLDivElement | null) => {
      sizedRef.current = el
      virtualizer.containerRef(el)
    },
    [virtualizer],
  )
  const toEnd = useCallback(() => {
    const el = scrollRef.current
    if (el) el.scrollTop = el.scrollHeight
  }, [])
  useEffect(() => {
    const sized = sizedRef.current
    if (!sized) return
    const ro = new ResizeObserver(() => {
      const el = scrollRef.current
      if (!following.current || !el) return
      // The page is laid out here: reading the offset costs nothing, and
      // the scroll event it causes is told it (offsetObserver).
      const from = el.scrollTop
      toEnd()
      if (el.scrollTop !== from) known.current.offset = el.scrollTop
    })
    ro.observe(sized)
    return () => ro.disconnect()
  }, [toEnd])
  // Following began (the run opened live, or the person asked to follow).
  useLayoutEffect(() => {
    if (live && follow) toEnd()
  }, [live, follow, toEnd])

  // The selection moved by keyboard: bring its card into view.
  useEffect(() => {
    if (selected === null) return
    const i = iterations.findIndex((it) => it.n === selected)
    if (i >= 0) virtualizer.scrollToIndex(i, { align: 'auto' })
    // Only a change of selection scrolls; new cards do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected])

  // Only the person stops the following: programmatic scrolls and cards
  // measured anew move the list too, and must not.
  const userAt = useRef(0)
  const byUser = useCallback(() => {
    userAt.current = performance.now()
    known.current.offset = null
  }, [])

  // Going to a card (the chart, "go to", Home/End, a search hit) puts its
  // header at the top. A hit further down its card is then brought into
  // view, once the card is in the page and has stopped moving.
  useEffect(() => {
    if (!reveal) return
    const i = iterations.findIndex((it) => it.n === reveal.n)
    if (i < 0) return
    if (live) setFollow(false)
    virtualizer.scrollToIndex(i, { align: 'start' })
    let raf = 0
    let last = NaN
    let still = 0
    const look = (frame: number) => {
      const box = scrollRef.current
      const el = box?.querySelector<HTMLElement>('[data-hit-active]')
      if (box && el) {
        const top = el.getBoundingClientRect().top - box.getBoundingClientRect().top
        still = top === last ? still + 1 : 0
        last = top
        if (still >= 3) {
          if (top < 0 || top + el.offsetHeight > box.clientHeight) virtualizer.scrollToOffset(box.scrollTop + top - box.clientHeight / 3)
          return
        }
      }
      if (frame < 120) raf = requestAnimationFrame(() => look(frame + 1))
    }
    if (hit) raf = requestAnimationFrame(() => look(0))
    return () => cancelAnimationFrame(raf)
    // Only a new request scrolls; new cards do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal])
  // A scroll to the end (re)starts following; a person's scroll away stops
  // it. Where the list stands is what the virtualizer read for this same
  // event: this listener is added after the virtualizer's, so it runs after
  // it. The element's scrollHeight and clientHeight would lay the page out
  // again after the virtualizer's redraw, on every scroll while following.
  useEffect(() => {
    const el = scrollRef.current
    if (!el) return
    const onScroll = () => {
      const v = self.current
      if (!v || v.scrollOffset === null || !v.scrollRect) return
      // The follow's own scroll never stops it, even when the list grew again since.
      if (atEnd(v.getTotalSize(), v.scrollOffset, v.scrollRect.height)) setFollow(true)
      else if (!known.current.own && performance.now() - userAt.current < 500) setFollow(false)
    }
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => el.removeEventListener('scroll', onScroll)
  }, [])

  const onFollow = useCallback(() => {
    // Asking to follow is no scroll of the person's.
    userAt.current = 0
    setFollow(true)
  }, [])

  return (
    <div
      className="timeline-scroll"
      ref={scrollRef}
      onWheel={byUser}
      onPointerDown={byUser}
      onKeyDown={byUser}
      onTouchMove={byUser}
      data-testid="timeline"
    >
      <div ref={setSized} style={{ position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const it = iterations[v.index]
          return (
            <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="card-slot">
              <IterationCard
                it={it}
                lang={lang}
                t={t}
                selected={selected === it.n}
                streaming={live && v.index === last}
                onSelect={onSelect}
                onFork={onFork}
                onArtifact={onArtifact}
                pins={pins}
                resultIndexes={resultIndexes}
                hit={hit?.n === it.n ? hit : null}
              />
            </div>
          )
        })}
      </div>
      {live && !follow && (
        <button type="button" className="follow" onClick={onFollow} data-testid="follow">
          ↓ {t('timeline.follow')}
        </button>
      )}
    </div>
  )
}
