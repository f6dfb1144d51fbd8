/** How a work order's state and priority show: words first, never by colour alone. */
import type { WorkOrderPriority, WorkOrderState } from "../../../domain/work-order";
import type { WorkorderCatalogue } from "~/i18n/workorder";

export function StateBadge({ t, state }: { t: WorkorderCatalogue; state: WorkOrderState }) {
  return (
    <span className={`wo-state wo-state-${state}`} data-testid="workorder-state">
      {t.workorder.states[state]}
    </span>
  );
}

export function PriorityLabel({ t, priority }: { t: WorkorderCatalogue; priority: WorkOrderPriority }) {
  return (
    <span className={`wo-priority wo-priority-${priority}`}>
      {priority === "urgent" || priority === "high" ? <span aria-hidden="true">! </span> : null}
      {t.workorder.priorities[priority]}
    </span>
  );
}

/** An error code of a form field or the API as text of the current language. */
export function errorText(t: WorkorderCatalogue, code: string | undefined): string | undefined {
  if (!code) return undefined;
  return (t.workorder.errors as Record<string, string>)[code] ?? code;
}
