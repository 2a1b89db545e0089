import type { Translation } from '@xv/platform/i18n';
import type { enOidc } from './en-oidc.js';

/** What "Sign in with XV" says, in Vietnamese. */
export const viOidc: Translation<typeof enOidc> = {
  'oidc.scope.openid': 'Biết bạn là ai (mã tài khoản XV của bạn)',
  'oidc.scope.profile': 'Xem tên của bạn',
  'oidc.scope.email': 'Xem địa chỉ e-mail của bạn và e-mail đó đã được xác minh hay chưa',
  'oidc.scope.organizations': 'Xem các tổ chức bạn tham gia và vai trò của bạn trong từng tổ chức',
  'oidc.scope.offline_access': 'Duy trì đăng nhập vào ứng dụng cả khi bạn không dùng đến',
  'oidc.scope.sync': 'Gửi tài liệu vào kho tri thức của tổ chức bạn để duyệt',
  'oidc.scope.ai:read': 'Tìm kiếm trong kho tri thức của tổ chức bạn',

  'oidc.consent.title': 'Cho phép {app}?',
  'oidc.consent.heading': 'Cho phép {app} sử dụng tài khoản XV của bạn?',
  'oidc.consent.registeredItself':
    '{app} tự đăng ký: không có tổ chức nào bảo đảm cho ứng dụng này. Bạn đang đăng nhập với tài khoản {email}.',
  'oidc.consent.registeredBy': '{app} do {organization} đăng ký. Bạn đang đăng nhập với tài khoản {email}.',
  'oidc.consent.scopesLabel': 'Nếu bạn cho phép, {app} có thể:',
  'oidc.consent.takeBack':
    'Bạn có thể rút lại quyền này bất cứ lúc nào tại mục "Ứng dụng bạn đã cho phép" trên trang tài khoản.',
  'oidc.consent.allow': 'Cho phép',
  'oidc.consent.deny': 'Từ chối',
  'oidc.consent.desktopApp': 'Ứng dụng XV trên máy tính (xv kb)',
  'oidc.consent.someOrganization': 'một tổ chức',

  'oidc.continue.title': 'Đang tiếp tục',
  'oidc.continue.heading': 'Đang tiếp tục…',
  'oidc.continue.link': 'Tiếp tục',

  'oidc.logout.title': 'Đăng xuất?',
  'oidc.logout.askedBy':
    '{app} yêu cầu đăng xuất bạn. Bạn muốn đăng xuất khỏi XV trên trình duyệt này, hay chỉ khỏi ứng dụng?',
  'oidc.logout.askedByApp':
    'Một ứng dụng yêu cầu đăng xuất bạn. Bạn muốn đăng xuất khỏi XV trên trình duyệt này, hay chỉ khỏi ứng dụng?',
  'oidc.logout.everywhere': 'Đăng xuất khỏi XV',
  'oidc.logout.appOnly': 'Chỉ khỏi ứng dụng',
  'oidc.loggedOut.title': 'Đã đăng xuất',
  'oidc.loggedOut.fromApp': 'Bạn đã đăng xuất khỏi {app}.',
  'oidc.loggedOut.message': 'Bạn đã đăng xuất.',
  'oidc.loggedOut.signInAgain': 'Đăng nhập lại',

  'oidc.device.title': 'Đăng nhập cho thiết bị',
  'oidc.device.intro':
    'Nhập mã mà thiết bị của bạn hiển thị (ví dụ trong cửa sổ dòng lệnh sau `xv kb login`).',
  'oidc.device.invalid': 'Mã này không hợp lệ hoặc đã hết hạn: hãy kiểm tra rồi thử lại.',
  'oidc.device.code': 'Nhập mã',
  'oidc.device.continue': 'Tiếp tục',
  'oidc.deviceConfirm.title': 'Xác nhận thiết bị',
  'oidc.deviceConfirm.asks': '{app} yêu cầu đăng nhập. Chỉ tiếp tục nếu thiết bị của bạn hiển thị mã này:',
  'oidc.deviceConfirm.anApp': 'Một ứng dụng',
  'oidc.deviceConfirm.cancel': 'Hủy',
  'oidc.deviceSuccess.title': 'Thiết bị đã đăng nhập',
  'oidc.deviceSuccess.message': '{app} đã đăng nhập. Bạn có thể đóng trang này.',
  'oidc.deviceSuccess.theDevice': 'Thiết bị',

  'oidc.error.title': 'Không thể hoàn tất yêu cầu đăng nhập của ứng dụng',
  'oidc.error.generic': 'Yêu cầu không hợp lệ.',
  'oidc.error.invalid_request': 'Yêu cầu của ứng dụng không hợp lệ.',
  'oidc.error.invalid_client': 'Ứng dụng chưa đăng ký với XV hoặc đã bị gỡ bỏ.',
  'oidc.error.invalid_redirect_uri': 'Ứng dụng yêu cầu quay về một địa chỉ mà nó chưa đăng ký.',
  'oidc.error.invalid_scope': 'Ứng dụng yêu cầu một quyền truy cập mà nó không được phép yêu cầu.',
  'oidc.error.unauthorized_client': 'Ứng dụng không được phép đăng nhập theo cách này.',
  'oidc.error.unsupported_response_type': 'Ứng dụng yêu cầu một kiểu phản hồi mà XV không cung cấp.',
  'oidc.error.invalid_target': 'Ứng dụng yêu cầu truy cập một dịch vụ mà XV không biết.',
  'oidc.error.access_denied': 'Quyền truy cập bị từ chối.',
  'oidc.error.server_error': 'XV gặp sự cố: hãy thử lại sau.',
  'oidc.expired.title': 'Lượt đăng nhập này đã hết hạn',
  'oidc.expired.message':
    'Yêu cầu đăng nhập của ứng dụng đã kết thúc hoặc được tạo trên một trình duyệt khác. Hãy quay lại ứng dụng và bắt đầu lại.',
  'oidc.noRealm.title': 'Không tìm thấy',
  'oidc.noRealm.message': 'Không có vùng này.',

  'oidc.allowed.title': 'Ứng dụng bạn đã cho phép',
  'oidc.allowed.none': 'Bạn chưa cho phép ứng dụng nào đăng nhập bằng XV.',
  'oidc.allowed.selfRegistered': '{app} (tự đăng ký)',
  'oidc.allowed.row': '{app} có thể xem: {scopes}. Đã cho phép lúc {when}.',
  'oidc.allowed.revoke.summary': 'Gỡ quyền truy cập…',
  'oidc.allowed.revoke.wording':
    '{app} sẽ không thể sử dụng tài khoản của bạn nữa; bạn sẽ bị đăng xuất khỏi ứng dụng đó.',
  'oidc.allowed.revoke.button': 'Gỡ quyền truy cập',
  'oidc.allowed.revoke.done': 'Đã gỡ quyền truy cập.',
  'oidc.apps.title': 'Đăng nhập bằng XV: các ứng dụng của tổ chức bạn',
  'oidc.apps.kind.confidential': 'chạy trên máy chủ',
  'oidc.apps.kind.public': 'công khai',
  'oidc.apps.remove.summary': 'Gỡ bỏ…',
  'oidc.apps.remove.wording':
    '{app} sẽ không thể cho ai đăng nhập nữa; mọi người đang đăng nhập vào đó qua XV sẽ bị đăng xuất.',
  'oidc.apps.remove.button': 'Gỡ bỏ ứng dụng',
  'oidc.apps.remove.done': 'Đã gỡ bỏ ứng dụng.',
  'oidc.apps.register': 'Đăng ký một ứng dụng',
  'oidc.apps.name': 'Tên hiển thị cho mọi người',
  'oidc.apps.kind': 'Loại',
  'oidc.apps.kindConfidential': 'Chạy trên máy chủ (được cấp khóa bí mật)',
  'oidc.apps.kindPublic': 'Chạy trong trình duyệt hoặc trên thiết bị (không có khóa bí mật, dùng PKCE)',
  'oidc.apps.redirects': 'Các redirect URI, mỗi dòng một địa chỉ (phải khớp chính xác)',
  'oidc.apps.logoutRedirects': 'Nơi chuyển đến sau khi đăng xuất, mỗi dòng một địa chỉ (không bắt buộc)',
  'oidc.apps.logo': 'URL logo (https, không bắt buộc)',
  'oidc.apps.scopes': 'Những quyền ứng dụng được yêu cầu',
  'oidc.apps.submit': 'Đăng ký ứng dụng',
  'oidc.registered.title': 'Đã đăng ký ứng dụng',
  'oidc.registered.heading': 'Đã đăng ký {app}',
  'oidc.registered.discovery': 'URL khám phá (discovery)',
  'oidc.registered.clientId': 'Mã ứng dụng (client id)',
  'oidc.registered.secret':
    'Khóa bí mật của ứng dụng (chỉ hiển thị lần này: hãy sao chép vào cấu hình của ứng dụng)',
  'oidc.registered.back': 'Quay lại tài khoản của bạn',

  'error.oidc_client_not_found': 'Tổ chức của bạn không có ứng dụng nào với client id này.',
  'error.consent_not_found': 'Bạn chưa cho phép ứng dụng nào có client id này.',
  'error.invalid_redirect_uri':
    'Redirect URI phải là một URL https tuyệt đối (chỉ dùng http với máy cục bộ, hoặc một scheme riêng như com.example.app: cho ứng dụng công khai), không có phần fragment.',
};
