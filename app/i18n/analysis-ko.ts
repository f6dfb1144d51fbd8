/** Korean texts of the measurement and diagnosis screens; analysis-en.ts is its twin. Ships only with them. */
export const analysisKo = {
  measurement: {
    title: "계측",
    tabs: { label: "장비 종류", k1: "인버터", k2: "접속반", k4: "환경 센서" },
    all: "전체 (통합)",
    plant: "발전소",
    choosePlant: "발전소 선택",
    show: "보기",
    noPlants: "볼 수 있는 발전소가 없습니다.",
    noDevices: "이 발전소에는 이 종류의 장비가 없습니다.",
    lastReading: "최근 수신 {time}",
    never: "수신 없음",
    chart24h: "최근 24시간 (10분 단위)",
    inverter: {
      acPower: "AC 출력", acVoltage: "AC 전압", acCurrent: "AC 전류", frequency: "주파수", powerFactor: "역률",
      dcPower: "DC 출력", dcVoltage: "DC 전압", dcCurrent: "DC 전류", efficiency: "변환 효율",
      today: "금일 발전량", total: "누적 발전량", state: "상태", running: "운전", stopped: "정지",
      fault: "고장", noFault: "고장 없음", detailsHidden: "이 RTU는 인버터 상세 정보를 보내지 않습니다 (RTU 설정 invDetail).",
    },
    board: {
      voltage: "버스 전압", total: "합계 전류", median: "스트링 중앙값", string: "스트링 {n}", current: "전류",
      ratio: "중앙값 대비", low: "낮음", ok: "정상", lowCount: "낮은 스트링 {n}개", allOk: "모든 스트링이 중앙값 부근입니다.",
      caption: "{name}: 스트링별 전류 (중앙값의 75% 미만이면 낮음)",
    },
    env: { poa: "경사면 일사량", horizontal: "수평면 일사량", module: "모듈 온도", ambient: "외기 온도" },
    grid: {
      title: "수배전반 · 누설 전류", state: "차단기", closed: "투입", open: "개방", leakage: "누설 전류", power: "전력",
      voltage: "전압", current: "전류", alarms: "미해제 알람 {n}건", release: "알람 해제", released: "알람 {n}건을 해제했습니다.",
    },
    series: { power: "발전 출력", poa: "경사면 일사량", horizontal: "수평면 일사량", module: "모듈 온도", ambient: "외기 온도", current: "전류", reference: "기준 발전량" },
    noIrradiance: "일사량 자료가 없어 일사량 그래프를 그리지 않습니다.",
  },
  diagnose: {
    title: "진단",
    tabs: { label: "진단 종류", producer: "생산자", performance: "발전 성능", comparison: "비교", ranking: "발전소 순위" },
    noService: "진단 서비스가 허용되지 않은 계정입니다.",
    period: { legend: "기간", start: "시작", end: "끝", unit: "단위", u10: "10분", u60: "1시간", u1440: "1일", submit: "진단" },
    periodTypes: { day: "오늘", week: "최근 7일", month: "이번 달", year: "올해" },
    plant: "발전소",
    failed: "진단 자료를 불러오지 못했습니다. 기간과 장비를 확인하고 다시 시도해 주세요.",
    badInput: {
      start_after_end: "시작이 끝보다 늦습니다.", window_too_long: "이 단위로는 기간이 너무 깁니다. 더 큰 단위를 고르세요.",
      bad_start: "시작 시각을 읽을 수 없습니다.", bad_end: "끝 시각을 읽을 수 없습니다.", bad_unit: "단위는 10분, 1시간, 1일 중 하나입니다.",
      no_selection: "비교할 장비를 먼저 고르세요.", only_inverters: "인버터만 진단할 수 있습니다.",
    },
    producer: {
      caption: "인버터별 발전량 (발전소 중앙값 대비, 낮은 순)", name: "인버터", energy: "발전량", yield: "발전 시간 (kWh/kWp)",
      median: "중앙값", deviation: "중앙값 대비", below: "{pct} 낮음", above: "{pct} 높음", flag: "점검 필요",
    },
    performance: {
      figures: "IEC 61724-1 성능 지표", yr: "기준 수율 Y_r", yf: "최종 수율 Y_f", pr: "성능비 PR", prStc: "온도 보정 성능비 PR_STC",
      epi: "에너지 성능 지수 EPI", availability: "가동률", energy: "발전량", expected: "기준 발전량", hours: "{v} h",
      losses: "손실 내역", downtime: "정지 손실", clipping: "출력 제한 (클리핑)", below: "기준 미달", surplus: "기준 초과",
      legend: { generation: "발전량 (파랑)", reference: "기준 발전량 (초록, 점선)", irradiance: "일사량 (빨강)" },
      coefficients: "온도 계수 γ {gamma} /°C, 시스템 계수 η {eta}", dropped: "자료가 빠진 구간 {n}개는 합계에서 뺐습니다.",
      chart: "{plant}: 발전량과 기준 발전량, 일사량",
    },
    comparison: {
      kind: "장비 종류", type: "자료 종류", devices: "장비 (둘 이상)", remembered: "처음 고른 비교 조건을 다시 썼습니다.",
      forget: "기억한 비교 조건 지우기", forgotten: "기억한 비교 조건을 지웠습니다.",
      types: { power: "출력 (kW)", energy: "발전량 (kWh)", dcVoltage: "DC 전압 (V)", dcCurrent: "DC 전류 (A)", current: "전류 (A)", voltage: "전압 (V)", poa: "경사면 일사량 (W/m²)", horizontal: "수평면 일사량 (W/m²)", moduleTemp: "모듈 온도 (°C)", ambientTemp: "외기 온도 (°C)" },
      chart: "비교: {type}",
      pick: "장비를 둘 이상 고르세요.",
    },
    ranking: { caption: "발전소별 에너지 성능 지수 (낮은 순)", plant: "발전소", capacity: "용량", epi: "EPI", pr: "PR", availability: "가동률", energy: "발전량", none: "자료 없음" },
  },
};
export type AnalysisMessages = typeof analysisKo;
