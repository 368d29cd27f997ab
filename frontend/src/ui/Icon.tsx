// Icons drawn as SVG, so they show whatever fonts the system has (media
// symbols such as ⏸ are missing from many).

export type IconName = 'pause' | 'play' | 'step-back' | 'step-forward' | 'skip-back' | 'skip-forward' | 'fork' | 'pin' | 'trash' | 'shield' | 'warning'

const shapes: Record<IconName, React.ReactNode> = {
  pause: (
    <>
      <rect x="4" y="3" width="3" height="10" />
      <rect x="9" y="3" width="3" height="10" />
    </>
  ),
  play: <path d="M4 2.5v11l9-5.5z" />,
  'step-back': <path d="M12 3v10L5 8zM3 3h2v10H3z" />,
  'step-forward': <path d="M4 3v10l7-5zM11 3h2v10h-2z" />,
  'skip-back': <path d="M8 3v10L2 8zM14 3v10L8 8z" />,
  'skip-forward': <path d="M2 3v10l6-5zM8 3v10l6-5z" />,
  // A push pin, its needle down and to the left.
  pin: <path d="M10.2 1.5l4.3 4.3-1.4.5-2.6 2.6.3 3.1-1.2 1.2-2.6-2.6-4 4-.7-.7 4-4-2.6-2.6 1.2-1.2 3.1.3 2.6-2.6z" />,
  // The sandbox: a shield while commands are confined, a warning sign when they are not.
  shield: <path d="M8 1l5.5 2v4.5c0 3.3-2.3 5.9-5.5 7.5-3.2-1.6-5.5-4.2-5.5-7.5V3z" />,
  warning: <path fillRule="evenodd" d="M8 1.5l7 12.5H1zM7.2 6v4.2h1.6V6zm0 5.2v1.6h1.6v-1.6z" />,
  trash: <path d="M6 1.5h4l.5 1.5H14v1.5H2V3h3.5zM3.5 5.5h9l-.8 9h-7.4zM6 7v6h1V7zm3 0v6h1V7z" />,
  fork: (
    <>
      <circle cx="4" cy="3" r="1.6" />
      <circle cx="4" cy="13" r="1.6" />
      <circle cx="12" cy="5" r="1.6" />
      <path className="stroke" d="M4 4.6v6.8M12 6.6c0 3-8 2.4-8 5" />
    </>
  ),
}

export function Icon({ name }: { name: IconName }) {
  return (
    <svg className="icon-svg" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
      {shapes[name]}
    </svg>
  )
}
