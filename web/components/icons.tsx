/**
 * The page's icons, as inline SVG: they draw the same everywhere (an emoji like 🗑 is a box without an emoji font)
 * and follow the text colour. Each is decorative (`aria-hidden`): the button that holds it carries the name.
 */
import type { JSX } from "preact";

type IconProps = { size?: number };

function Icon({ size = 16, children }: IconProps & { children: JSX.Element | JSX.Element[] }) {
  return (
    <svg class="icon-svg" width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const PencilIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M11.5 2.5l2 2L6 12l-3 1 1-3z" />
  </Icon>
);

export const TrashIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4" />
  </Icon>
);

export const CloseIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 4l8 8M12 4l-8 8" />
  </Icon>
);

export const RefreshIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M13 8a5 5 0 1 1-1.5-3.5M13 2.5v3h-3" />
  </Icon>
);
