import { useState } from 'react'

// A collapsible view of a JSON value. The model's arguments are text that may
// not parse; then the text is shown as it is.

export function JsonText({ text, open = 1 }: { text: string; open?: number }) {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return <pre className="json raw">{text}</pre>
  }
  return (
    <div className="json" data-testid="json-tree">
      <JsonNode value={value} depth={0} open={open} />
    </div>
  )
}

const longString = 160

function JsonNode({ value, depth, open, name }: { value: unknown; depth: number; open: number; name?: string }) {
  const [expanded, setExpanded] = useState(depth < open)
  const key = name !== undefined ? <span className="json-key">{name}: </span> : null
  if (value === null || typeof value !== 'object') return <JsonLeaf value={value} label={key} />
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value)
  const [openB, closeB] = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  if (entries.length === 0) return <div className="json-line">{key}{openB + closeB}</div>
  return (
    <div className="json-node">
      <button type="button" className="json-toggle" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
        {expanded ? '▾' : '▸'} {key}
        {openB}
        {!expanded && <span className="muted"> {entries.length} … {closeB}</span>}
      </button>
      {expanded && (
        <div className="json-children">
          {entries.map(([k, v]) => (
            <JsonNode key={k} name={Array.isArray(value) ? undefined : k} value={v} depth={depth + 1} open={open} />
          ))}
          <div className="json-line">{closeB}</div>
        </div>
      )}
    </div>
  )
}

function JsonLeaf({ value, label }: { value: unknown; label: React.ReactNode }) {
  const [full, setFull] = useState(false)
  if (typeof value === 'string') {
    const cut = !full && value.length > longString
    return (
      <div className="json-line">
        {label}
        <span className="json-string">"{cut ? value.slice(0, longString) + '…' : value}"</span>
        {cut && (
          <button type="button" className="link" onClick={() => setFull(true)}>
            +{value.length - longString}
          </button>
        )}
      </div>
    )
  }
  return (
    <div className="json-line">
      {label}
      <span className={`json-${value === null ? 'null' : typeof value}`}>{String(value)}</span>
    </div>
  )
}
