import type { Translation } from '@xv/platform/i18n';
import type { en } from './en.js';

/** What the orchestration service's pages say, in Vietnamese. */
export const vi: Translation<typeof en> = {
  'lead.title': 'Liên hệ với chúng tôi',
  'lead.intro': 'Để lại e-mail công việc, chúng tôi sẽ phản hồi trong vòng một ngày làm việc.',
  'lead.name': 'Họ và tên',
  'lead.email': 'E-mail công việc',
  'lead.emailHint': 'Không nhận địa chỉ e-mail cá nhân hoặc dùng một lần.',
  'lead.company': 'Công ty (không bắt buộc)',
  'lead.send': 'Gửi',
  'lead.sent': 'Cảm ơn bạn! Chúng tôi sẽ sớm liên hệ.',
  'lead.checking': 'Đang kiểm tra bạn không phải là robot…',
  'lead.sending': 'Đang gửi…',
  'lead.checkFailed': 'Kiểm tra robot không thành công. Vui lòng thử lại.',
  'lead.error.invalid': 'Hãy nhập họ tên và một địa chỉ e-mail hợp lệ.',
  'lead.error.personal_email': 'Hãy dùng e-mail công việc: không nhận địa chỉ cá nhân hoặc dùng một lần.',
  'lead.error.challenge_required': 'Vui lòng đợi kiểm tra robot hoàn tất rồi gửi lại biểu mẫu.',
  'lead.error.challenge_failed': 'Kiểm tra robot đã hết hạn. Vui lòng gửi lại biểu mẫu.',
  'lead.error.challenge_reused': 'Kiểm tra robot đã hết hạn. Vui lòng gửi lại biểu mẫu.',
  'lead.error.rate_limited': 'Địa chỉ này đã gửi quá nhiều tin. Vui lòng thử lại sau.',
};
