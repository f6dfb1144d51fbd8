export { placeholderLoader as loader } from "~/auth/section.server";
export { PlaceholderScreen as default } from "~/components/NotYetAvailable";
