/** Any other path: a real 404 page inside the document, not a crash. */
export async function loader() {
  throw new Response("not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
