/**
 * Learning rate at `step` (0-based): linear warmup to `peak` over `warmupSteps`, then cosine decay to 0 at
 * `totalSteps` (the Thunder-DeID recipe; Hugging Face's get_cosine_schedule_with_warmup).
 */
export function warmupCosine(step: number, peak: number, warmupSteps: number, totalSteps: number): number {
  if (warmupSteps > 0 && step < warmupSteps) return (peak * (step + 1)) / warmupSteps;
  const progress = Math.min(1, (step - warmupSteps) / Math.max(1, totalSteps - warmupSteps));
  return peak * 0.5 * (1 + Math.cos(Math.PI * progress));
}
