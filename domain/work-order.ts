/**
 * Work orders (issue 29 §3): the states a work order moves through and which moves are allowed — written once,
 * used by the API (which refuses any other move) and the portal (which shows only the allowed buttons).
 *
 * open → in_progress → done; open or in_progress → cancelled. Done and cancelled are final.
 */
export const WORK_ORDER_STATES = ["open", "in_progress", "done", "cancelled"] as const;
export type WorkOrderState = (typeof WORK_ORDER_STATES)[number];

export const WORK_ORDER_PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export type WorkOrderPriority = (typeof WORK_ORDER_PRIORITIES)[number];

const MOVES: Record<WorkOrderState, readonly WorkOrderState[]> = {
  open: ["in_progress", "cancelled"],
  in_progress: ["done", "cancelled"],
  done: [],
  cancelled: [],
};

/** The states a work order in `from` may move to, in the order the screen offers them. */
export function nextStates(from: WorkOrderState): readonly WorkOrderState[] {
  return MOVES[from] ?? [];
}

/** Whether `from` → `to` is an allowed move (staying in the same state is not a move). */
export function canMove(from: WorkOrderState, to: WorkOrderState): boolean {
  return nextStates(from).includes(to);
}

/** A work order that is done or cancelled takes no more edits, state changes or assignment (notes still). */
export function isClosed(state: WorkOrderState): boolean {
  return nextStates(state).length === 0;
}

export function isWorkOrderState(v: unknown): v is WorkOrderState {
  return typeof v === "string" && (WORK_ORDER_STATES as readonly string[]).includes(v);
}
