// The fixed query list of the benchmark: keywords, long English prompts and Japanese prompts.

export const QUERIES = [
  'コードレビュー',
  'オンコール エスカレーション',
  'OKR',
  'Kubernetes',
  'セキュリティ インシデント 対応',
  '経費精算',
  'merge request approval',
  'オンボーディング',
  'リモートワーク 非同期コミュニケーション',
  '採用 面接 プロセス',
  'How should I handle a security incident that affects customer data? Walk me through who to notify and in what order.',
  'I am preparing my first merge request review at GitLab. What does the handbook say reviewers and maintainers must check before approving?',
  'We need to plan next quarter\'s OKRs for the engineering team. How are OKRs drafted, scored and reviewed?',
  'What is the process for requesting access to a new system, and who approves access requests?',
  'Explain how on-call rotations work for infrastructure engineers, including handover and escalation.',
  '新しくチームに入ったエンジニアのオンボーディングで最初の週にやるべきことを整理したい。ハンドブックに書いてある手順を教えてください。',
  '障害が発生したときのインシデント対応の流れと、誰にエスカレーションすればいいのかを知りたいです。',
  'コードレビューでマージリクエストを承認する前に、レビュアーとメンテナーが確認すべき点は何ですか？',
  '休暇を取るときの申請方法と、チームへの共有のしかたについて教えてください。',
  '会社の価値観（CREDIT）について、日々の仕事でどう実践すればいいのか具体例をまとめてほしい。',
];

/** The note the watch-latency measurement edits (relative to the corpus root); any existing note works. */
export const WATCH_NOTE = '_index.md';
