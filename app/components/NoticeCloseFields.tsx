/** The "don't show for a week" choice and the close button, in both forms of the notice pop-up. */
import { useT } from "~/i18n";

export function NoticeCloseFields({ id }: { id: string }) {
  const p = useT().notices.popup;
  return (
    <>
      <div className="check">
        <input type="checkbox" id={id} name="week" value="1" />
        <label htmlFor={id}>{p.week}</label>
      </div>
      <button type="submit">{p.close}</button>
    </>
  );
}
