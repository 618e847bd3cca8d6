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

export const CheckIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M3 8.5l3 3 7-7" />
  </Icon>
);

export const CrossIcon = CloseIcon;

export const StopIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="4" y="4" width="8" height="8" rx="1" />
  </Icon>
);

export const BoltIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M9 1.5L3.5 9H8l-1 5.5L12.5 7H8z" />
  </Icon>
);

export const DotsIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M3.5 8h.01M8 8h.01M12.5 8h.01" />
  </Icon>
);

export const BanIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="8" cy="8" r="5.5" />
    <path d="M4.2 11.8l7.6-7.6" />
  </Icon>
);

export const ImageIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="2" y="3" width="12" height="10" rx="1.5" />
    <path d="M2.5 11l3.5-3.5 3 3 2-2 2.5 2.5" />
  </Icon>
);

export const MenuIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M2.5 4h11M2.5 8h11M2.5 12h11" />
  </Icon>
);

export const BoxIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="2.5" y="2.5" width="11" height="11" rx="2" />
  </Icon>
);

export const BoxCheckIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="2.5" y="2.5" width="11" height="11" rx="2" />
    <path d="M5 8.5l2 2 4-4.5" />
  </Icon>
);

export const HalfIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="8" cy="8" r="5.5" />
    <path d="M8 2.5v11A5.5 5.5 0 0 0 8 2.5z" fill="currentColor" />
  </Icon>
);
