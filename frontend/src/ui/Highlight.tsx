import type { CardHit } from '../lib/search'

/**
 * Highlight shows text with the search hit in it marked. The marked element
 * carries data-hit-active, which the timeline scrolls into view; a hit with
 * no range (a filter alone) marks the whole text.
 */
export function Highlight({ text, hit }: { text: string; hit: CardHit | null | undefined }) {
  if (!hit) return <>{text}</>
  if (hit.end <= hit.start || hit.end > text.length) {
    return (
      <span className="hit-whole" data-hit-active="">
        {text}
      </span>
    )
  }
  return (
    <>
      {text.slice(0, hit.start)}
      <mark className="hit" data-hit-active="" data-testid="search-mark">
        {text.slice(hit.start, hit.end)}
      </mark>
      {text.slice(hit.end)}
    </>
  )
}
