/** The body of every refusal of the /api (SPEC §5): a message code, field errors for forms, details. */
export interface ApiErrorBody {
  message: string;
  /** Field errors keyed by field name, for forms. */
  fields?: Record<string, string>;
  isLogin?: false;
  retryAfter?: number;
  /** Names that explain a refusal, e.g. what still depends on a group that cannot be deleted. */
  details?: Record<string, string[]>;
}
