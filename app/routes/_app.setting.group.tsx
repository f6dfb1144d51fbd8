export { settingPlaceholderLoader as loader } from "~/auth/section.server";
export { SettingPlaceholderScreen as default } from "~/components/NotYetAvailable";
