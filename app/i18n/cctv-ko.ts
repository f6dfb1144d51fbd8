/**
 * Korean texts of the camera screen (/cctv). Only that screen imports this part (through ./cctv.ts);
 * cctv-en.ts is its twin.
 */
import { outboundErrorsKo } from "./outbound-ko";

export const cctvKo = {
  cctv: {
    title: "CCTV",
    choose: "카메라",
    show: "보기",
    noCameras: "볼 수 있는 카메라가 없습니다.",
    noCamerasAdmin: "아직 등록된 카메라가 없습니다. 아래에서 발전소의 카메라를 등록하세요.",
    list: "카메라 목록",
    table: {
      plant: "발전소",
      camera: "카메라",
      state: "상태",
      resolution: "해상도",
      address: "주소",
      credentials: "인증 정보",
      actions: "관리",
    },
    credentials: { yes: "있음 (서버에만 보관)", no: "없음" },
    states: {
      idle: "대기 중 (보는 사람이 없어 연결하지 않음)",
      starting: "카메라에 연결하는 중…",
      live: "실시간",
      unreachable: "카메라에 연결할 수 없습니다",
      ffmpeg_missing: "서버에 영상 변환기(ffmpeg)가 없어 영상을 볼 수 없습니다",
    },
    stateMarks: { idle: "○", starting: "…", live: "●", unreachable: "✕", ffmpeg_missing: "!" },
    unreachableHelp: "카메라 전원과 네트워크, 주소와 인증 정보를 확인하세요. 잠시 후 다시 시도합니다.",
    ffmpegHelp: "관리자가 서버에 ffmpeg를 설치하거나 FFMPEG_PATH를 지정해야 합니다.",
    reason: "원인: {reason}",
    resolution: "해상도 {w}×{h} ({mp} MP)",
    resolutionUnknown: "해상도: 아직 확인하지 못함 (처음 볼 때 확인합니다)",
    motieOk: "산업부 기준(200만 화소 이상) 충족",
    motieLow: "산업부 기준(200만 화소 이상) 미달",
    video: "{name} 실시간 영상",
    snapshot: "{name} 정지 화면",
    snapshotNote: "정지 화면입니다. 새로 고치면 최신 화면을 봅니다.",
    snapshotFailed: "정지 화면을 가져오지 못했습니다.",
    refresh: "새로 고침",
    shownAbove: "위에서 보는 중",
    playing: "재생 중",
    retry: "다시 시도",
    noPlayer: "이 브라우저는 실시간 영상(HLS)을 재생할 수 없습니다. 정지 화면을 보여 드립니다.",
    admin: {
      title: "카메라 등록",
      hint: "RTSP(rtsp://…) 또는 HTTP 스트림 주소를 넣으세요. 아이디와 비밀번호는 서버에만 보관되고 브라우저로 보내지 않습니다.",
      plant: "발전소",
      name: "카메라 이름",
      url: "스트림 주소",
      username: "아이디 (선택)",
      password: "비밀번호 (선택)",
      submit: "등록",
      remove: "삭제",
      removeLabel: "{name} 삭제",
      added: "카메라를 등록했습니다.",
      removed: "카메라를 삭제했습니다.",
    },
    errors: {
      required: "필수 항목입니다.",
      too_long: "너무 깁니다.",
      invalid_url: "올바른 주소가 아닙니다.",
      unsupported_scheme: "rtsp://, rtsps://, http://, https:// 주소만 쓸 수 있습니다.",
      ...outboundErrorsKo,
      plant_not_found: "발전소를 찾을 수 없습니다.",
      camera_not_found: "카메라를 찾을 수 없습니다.",
      admin_level_insufficient: "권한이 없습니다.",
      cctv_not_enabled: "CCTV 서비스를 쓰지 않는 계정입니다.",
      read_only: "읽기 전용 계정입니다.",
    },
  },
};

export type CctvMessages = typeof cctvKo;
