import { createNativeStackNavigator } from '@react-navigation/native-stack';

export type RootStackParamList = { Home: undefined; Booking: { clinicId: string } };

export const Stack = createNativeStackNavigator<RootStackParamList>();
