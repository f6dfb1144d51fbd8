/**
 * Words of work orders outside the portal's screens: the assignee's mail and the CSV export the API writes
 * (Korean first, English for members who chose it). The screens' texts are in app/i18n/workorder-*.ts.
 */
import type { WorkOrderPriority, WorkOrderState } from "./work-order";

export type WorkOrderWordLocale = "ko" | "en";

export const WORK_ORDER_WORDS: Record<
  WorkOrderWordLocale,
  {
    states: Record<WorkOrderState, string>;
    priorities: Record<WorkOrderPriority, string>;
    assignedSubject: string;
    assignedIntro: string;
    csv: {
      id: string;
      plantUid: string;
      plant: string;
      title: string;
      priority: string;
      state: string;
      assignee: string;
      dueDate: string;
      createdBy: string;
      createdAt: string;
      updatedAt: string;
      description: string;
    };
    mail: { plant: string; title: string; priority: string; dueDate: string; description: string; link: string; none: string };
  }
> = {
  ko: {
    states: { open: "접수", in_progress: "진행 중", done: "완료", cancelled: "취소" },
    priorities: { low: "낮음", normal: "보통", high: "높음", urgent: "긴급" },
    assignedSubject: "[작업 지시] {plant} · {title}",
    assignedIntro: "{by} 님이 작업 지시 #{id}의 담당자로 지정했습니다.",
    csv: {
      id: "번호",
      plantUid: "발전소 코드",
      plant: "발전소",
      title: "제목",
      priority: "우선순위",
      state: "상태",
      assignee: "담당자",
      dueDate: "기한",
      createdBy: "작성자",
      createdAt: "작성 시각",
      updatedAt: "변경 시각",
      description: "내용",
    },
    mail: {
      plant: "발전소",
      title: "제목",
      priority: "우선순위",
      dueDate: "기한",
      description: "내용",
      link: "바로가기",
      none: "없음",
    },
  },
  en: {
    states: { open: "Open", in_progress: "In progress", done: "Done", cancelled: "Cancelled" },
    priorities: { low: "Low", normal: "Normal", high: "High", urgent: "Urgent" },
    assignedSubject: "[Work order] {plant} · {title}",
    assignedIntro: "{by} assigned work order #{id} to you.",
    csv: {
      id: "No.",
      plantUid: "Plant code",
      plant: "Plant",
      title: "Title",
      priority: "Priority",
      state: "State",
      assignee: "Assignee",
      dueDate: "Due",
      createdBy: "Created by",
      createdAt: "Created at",
      updatedAt: "Updated at",
      description: "Description",
    },
    mail: {
      plant: "Plant",
      title: "Title",
      priority: "Priority",
      dueDate: "Due",
      description: "Description",
      link: "Open",
      none: "none",
    },
  },
};
