import type { Translation } from '@xv/platform/i18n';
import type { en } from './en.js';

/** What the agent's pages say, in Vietnamese. */
export const vi: Translation<typeof en> = {
  'chat.title': 'Trò chuyện',
  'chat.conversation': 'Cuộc trò chuyện',
  'chat.newConversation': 'Cuộc trò chuyện mới',
  'chat.who.anonymous': 'Bạn chưa đăng nhập: Trợ lý chỉ trả lời dựa trên thông tin công khai.',
  'chat.who.signIn': 'Đăng nhập',
  'chat.who.signedInAs': 'Bạn đã đăng nhập với tên',
  'chat.who.forOrganization': 'thuộc tổ chức',
  'chat.who.account': 'Tài khoản và tổ chức',
  'chat.message': 'Tin nhắn của bạn',
  'chat.placeholder': 'Hỏi về tài liệu của bạn, giá trị của AI cho một nhóm, hoặc đề nghị được gọi lại…',
  'chat.send': 'Gửi',
  'chat.noModel.notice':
    'Trợ lý chưa được kết nối với mô hình ngôn ngữ, nên hiện tại Trợ lý trả lời bằng các đoạn trích từ kho tri thức, mỗi đoạn kèm liên kết đến tài liệu của đoạn đó.',
  'chat.noModel.title': 'Chưa cấu hình mô hình ngôn ngữ',
  'chat.noModel.intro':
    'Trong thời gian này, câu trả lời sẽ trích các đoạn liên quan nhất trong kho tri thức. Để Trợ lý tự viết câu trả lời, hãy cấu hình cho dịch vụ agent một trong các lựa chọn sau rồi khởi động lại dịch vụ:',
  'chat.noModel.openAi': 'một địa chỉ API tương thích OpenAI:',
  'chat.noModel.workersAi': 'Cloudflare Workers AI:',
  'chat.noModel.optionally': 'có thể thêm',
  'chat.noModel.docs':
    'Các cài đặt này được mô tả trong tài liệu của dịch vụ agent (docs/agent.md, mục “Settings”).',
  'chat.you': 'Bạn',
  'chat.agent': 'Trợ lý',
  'chat.toolsUsed': 'Công cụ đã dùng',
  'chat.sources': 'Nguồn',
  'chat.tool.knowledgeBaseSearch': 'Đã tìm kiếm trong kho tri thức',
  'chat.tool.estimateAiRoi': 'Đã ước tính lợi tức đầu tư (ROI) của AI',
  'chat.tool.createTicket': 'Đã tạo yêu cầu hỗ trợ',
  'chat.tool.failed': '{tool} (không thành công)',
  'chat.loadFailed': 'Không tải được cuộc trò chuyện.',
  'chat.answering': 'Trợ lý đang trả lời…',
  'chat.started': 'Đã bắt đầu một cuộc trò chuyện mới.',
  'chat.connectionLost': '[Kết nối bị gián đoạn.]',
  'chat.answerStopped': 'Câu trả lời bị dừng giữa chừng. Tin nhắn này chưa được lưu; vui lòng gửi lại.',
  'chat.error.http': 'Trợ lý không thể trả lời (HTTP {status}).',
  'chat.error.empty_message': 'Tin nhắn đang để trống.',
  'chat.error.message_too_long': 'Tin nhắn quá dài.',
  'chat.error.invalid_session': 'Không thể dùng cuộc trò chuyện này; hãy bắt đầu một cuộc trò chuyện mới.',
  'chat.error.rate_limited': 'Địa chỉ này đã gửi quá nhiều tin nhắn. Vui lòng thử lại sau một phút.',
  'chat.error.session_busy': 'Cuộc trò chuyện đang xử lý một tin nhắn khác; vui lòng thử lại sau giây lát.',
  'chat.error.model_failed': 'Mô hình gặp lỗi trước khi trả lời. Vui lòng thử lại.',
  'chat.error.ai_unavailable': 'Không có mô hình ngôn ngữ nào cho cuộc trò chuyện này.',
  'chat.error.not_a_member': 'Bạn không còn là thành viên của tổ chức sở hữu cuộc trò chuyện này.',
  'chat.error.no_public_assistant':
    'Hãy đăng nhập để dùng tổ chức này; tổ chức này không có Trợ lý công khai.',
  'answer.knowledgeOnly':
    'Chưa có mô hình ngôn ngữ nào được cấu hình, nên câu trả lời này trích nguyên văn các đoạn liên quan nhất trong kho tri thức.',
  'answer.quote': '**Trích dẫn {number}**, từ {source}:',
  'answer.noPassage': 'Không có đoạn nào trong kho tri thức khớp với tin nhắn này.',
  'answer.search.not_available':
    'Cuộc trò chuyện này không truy cập được kho tri thức: hãy đăng nhập, hoặc trò chuyện với một tổ chức có Trợ lý công khai.',
  'answer.search.timeout': 'Kho tri thức không phản hồi kịp thời.',
  'answer.search.unreachable': 'Không kết nối được với kho tri thức.',
  'answer.search.refused': 'Kho tri thức trả về lỗi HTTP {status}.',
  'answer.search.malformed': 'Kho tri thức trả về kết quả không hợp lệ.',
  'answer.search.failed': 'Kho tri thức gặp lỗi.',
  'answer.stepLimit': '[Trợ lý đã dừng sau {steps} bước dùng công cụ mà vẫn chưa có câu trả lời cuối cùng.]',
};
