export { runDemo, summaryTable, DEMO_BUDGETS } from './demo.js';
export type { DemoOptions, DemoResult, DemoBudget } from './demo.js';
