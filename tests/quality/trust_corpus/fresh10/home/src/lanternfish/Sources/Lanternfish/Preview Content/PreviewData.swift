import Foundation

enum PreviewData {}
