/** The middle, the 95th and the 99th percentile of a run's times (nearest rank). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
export const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!
export const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!
