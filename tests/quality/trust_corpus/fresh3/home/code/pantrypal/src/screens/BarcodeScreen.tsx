import { CameraView } from 'expo-camera';
export function BarcodeScreen() {
  return null;
}
