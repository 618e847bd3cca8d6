/** Per-day stacked bars, one colour per agent/model pair, drawn as inline SVG (no chart library, no network). */
import type { DailyUsage } from "../state/usage.ts";

const PALETTE = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#db2777", "#65a30d"];
const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 56;
const BOTTOM = 22;
const TOP = 8;

export function seriesColor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

export function UsageChart({ data, format }: { data: DailyUsage; format: (value: number) => string }) {
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, data.days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const scale = data.max > 0 ? plotHeight / data.max : 0;
  const labelEvery = Math.max(1, Math.ceil(data.days.length / 7));
  return (
    <figure class="usage-chart" data-testid="usage-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Usage per day, by agent and model">
        <line class="axis" x1={LEFT} y1={TOP + plotHeight} x2={WIDTH - 8} y2={TOP + plotHeight} />
        <text class="axis-label" x={LEFT - 6} y={TOP + 10} text-anchor="end">
          {format(data.max)}
        </text>
        <text class="axis-label" x={LEFT - 6} y={TOP + plotHeight} text-anchor="end">
          0
        </text>
        {data.days.map((day, i) => {
          const x = LEFT + i * slot + (slot - barWidth) / 2;
          let y = TOP + plotHeight;
          return (
            <g key={day} data-day={day}>
              {data.series.map((series, s) => {
                const value = series.values[i]!;
                if (value <= 0) return null;
                const h = Math.max(1, value * scale);
                y -= h;
                return (
                  <rect
                    key={series.key}
                    x={x}
                    y={y}
                    width={barWidth}
                    height={h}
                    fill={seriesColor(s)}
                    data-testid="usage-bar"
                    data-series={series.key}
                    data-value={value}
                  >
                    <title>{`${day} · ${series.key}: ${format(value)}`}</title>
                  </rect>
                );
              })}
              {(i % labelEvery === 0 || i === data.days.length - 1) && (
                <text class="axis-label" x={x + barWidth / 2} y={HEIGHT - 6} text-anchor="middle">
                  {day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption class="usage-legend">
        {data.series.length === 0 && <span class="muted">Nothing reported in this range.</span>}
        {data.series.map((series, s) => (
          <span key={series.key} class="legend-item" data-testid="usage-legend-item">
            <span class="swatch" style={{ background: seriesColor(s) }} />
            {series.key}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
